//! The text of a record file: UTF-8 (with or without a byte-order mark), or Shift-JIS, in which
//! older Japanese tools and many archives still save KIF. `encoding_rs` does the Shift-JIS
//! decoding (WHATWG's table, the one browsers use).

use super::RecordError;

/// The text of `bytes`: UTF-8 when they are valid UTF-8, Shift-JIS when they decode as it
/// without a fault, refused otherwise.
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => return Ok(text.to_string()),
        // A file cut inside its last character: the text before it, whose last line the
        // record's reader finds cut short.
        Err(e) if e.error_len().is_none() && e.valid_up_to() + 4 > bytes.len() => {
            return Ok(String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned());
        }
        Err(_) => {}
    }
    let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
    if had_errors {
        let valid = std::str::from_utf8(bytes)
            .err()
            .map_or(0, |e| e.valid_up_to());
        let line = 1 + bytes[..valid].iter().filter(|&&b| b == b'\n').count();
        return Err(RecordError::at(
            line,
            "the file is neither UTF-8 nor Shift-JIS text",
        ));
    }
    Ok(text.into_owned())
}

/// `text` in Shift-JIS, for a reader that takes nothing else; `None` when a character has no
/// Shift-JIS form.
pub fn encode_shift_jis(text: &str) -> Option<Vec<u8>> {
    let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
    (!had_errors).then(|| bytes.into_owned())
}
