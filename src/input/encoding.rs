//! Text decoding of tag values and comments: UTF-8 where valid, else Latin-1 (the PGN
//! standard's character set), or the encoding named by `--encoding`.

use std::borrow::Cow;

use encoding_rs::Encoding;

/// How to turn bytes from the file into text.
#[derive(Debug, Clone, Copy)]
pub enum TextDecoder {
    /// UTF-8 where valid, else Latin-1.
    Auto,
    /// A named encoding (WHATWG labels).
    Named(&'static Encoding),
}

impl TextDecoder {
    /// Looks up `--encoding NAME`.
    pub fn from_label(label: &str) -> Result<TextDecoder, String> {
        let lower = label.trim().to_ascii_lowercase();
        match lower.as_str() {
            "auto" | "" => Ok(TextDecoder::Auto),
            "utf-8" | "utf8" => Ok(TextDecoder::Named(encoding_rs::UTF_8)),
            _ => Encoding::for_label(lower.as_bytes())
                .map(TextDecoder::Named)
                .ok_or_else(|| {
                    format!("--encoding: unknown encoding `{label}` (try auto, utf-8, latin1, windows-1252)")
                }),
        }
    }

    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Cow<'a, str> {
        match self {
            TextDecoder::Auto => match std::str::from_utf8(bytes) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
            },
            TextDecoder::Named(encoding) => encoding.decode_without_bom_handling(bytes).0,
        }
    }
}
