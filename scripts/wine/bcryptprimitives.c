/* A stand-in for Windows' bcryptprimitives.dll, for Wine before 8.13 only (Debian 12 has 8.0).
 *
 * Rust's standard library takes its random seeds (HashMap keys) from ProcessPrng in
 * bcryptprimitives.dll, which Windows 10 and later have and Wine gained in 8.13. An older Wine
 * refuses to start shishi.exe for want of it. Placed beside shishi.exe, this DLL supplies
 * ProcessPrng by RtlGenRandom (advapi32's SystemFunction036), which every Wine has.
 * Never needed on Windows itself.
 *
 * Build: x86_64-w64-mingw32-gcc -O2 -shared -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
