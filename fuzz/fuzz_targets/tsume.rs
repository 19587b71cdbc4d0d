#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shishi::fuzzing::tsume(data));
