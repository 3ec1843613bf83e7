//! Text decoding of tag values and comments: UTF-8 where valid, else Latin-1 (the PGN
//! standard's character set), or the encoding named by `--encoding`. WHATWG encodings
//! come from encoding_rs; the DOS code pages it lacks (437, 850) from oem_cp's tables.
//! `TextDecoder::from_label` is the one parser of encoding names (the `--encoding` value
//! parser calls it); its error is `UnknownEncoding`.

use std::borrow::Cow;

use encoding_rs::Encoding;

/// An encoding name that `TextDecoder::from_label` does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown encoding `{label}` (try auto, utf-8, latin1, windows-1252, cp437, cp850)")]
pub struct UnknownEncoding {
    pub label: String,
}

/// How to turn bytes from the file into text.
#[derive(Debug, Clone, Copy)]
pub enum TextDecoder {
    /// UTF-8 where valid, else Latin-1.
    Auto,
    /// A named encoding (WHATWG labels).
    Named(&'static Encoding),
    /// A DOS code page (old ChessBase and DOS-era exports): the table of bytes 128-255.
    Oem(&'static [char; 128]),
}

impl TextDecoder {
    /// Looks up `--encoding NAME`: `auto`, `utf-8`, the DOS code pages 437 and 850, or any
    /// WHATWG label.
    pub fn from_label(label: &str) -> Result<TextDecoder, UnknownEncoding> {
        let lower = label.trim().to_ascii_lowercase();
        match lower.as_str() {
            "auto" | "" => Ok(TextDecoder::Auto),
            "utf-8" | "utf8" => Ok(TextDecoder::Named(encoding_rs::UTF_8)),
            "cp437" | "ibm437" | "437" | "oem437" => {
                Ok(TextDecoder::Oem(&oem_cp::code_table::DECODING_TABLE_CP437))
            }
            "cp850" | "ibm850" | "850" | "oem850" => {
                Ok(TextDecoder::Oem(&oem_cp::code_table::DECODING_TABLE_CP850))
            }
            _ => Encoding::for_label(lower.as_bytes())
                .map(TextDecoder::Named)
                .ok_or_else(|| UnknownEncoding {
                    label: label.to_owned(),
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
            // ASCII reads the same in every code page: no copy.
            TextDecoder::Oem(_) if bytes.is_ascii() => String::from_utf8_lossy(bytes),
            TextDecoder::Oem(table) => {
                Cow::Owned(oem_cp::decode_string_complete_table(bytes, table))
            }
        }
    }
}
