//! Tokens that are not standard SAN but still mean exactly one move (`e8Q`, `e2-e4`,
//! `g1f3`, `1…e5`, `Qxf7++`, `exd6ep`, `0-0`, localized piece letters): each is read as
//! the standard SAN it stands for, and the replay then plays or diagnoses it as usual.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess, Position, Rank, Role, Square};

/// The letters a file uses for king, queen, rook, bishop and knight (`--piece-letters`);
/// English (`KQRBN`) is the replay's `None`, read on the plain path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceLetters([u8; 5]);

/// The English letters, in the order `PieceLetters` holds them.
const ENGLISH: [u8; 5] = *b"KQRBN";

/// The languages a failed move is tried in, to say which letters would have read it.
const LANGUAGES: [(&[u8; 5], &str); 5] = [
    (b"KDTLS", "German"),
    (b"KDTLP", "Dutch"),
    (b"RDTAC", "Spanish and Italian"),
    (b"RDTFC", "French"),
    (&ENGLISH, "English"),
];

/// Why `--piece-letters` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not five distinct upper-case letters for king, queen, rook, bishop and knight \
     (KQRBN English, KDTLS German, KDTLP Dutch, RDTAC Spanish and Italian, RDTFC French); \
     `O` is castling's"
)]
pub struct BadPieceLetters(pub String);

impl PieceLetters {
    /// Five distinct upper-case ASCII letters, none `O` (castling); `de`, `fr`, `nl`, `es`
    /// and `it` name their language's letters.
    pub fn parse(text: &str) -> Result<PieceLetters, BadPieceLetters> {
        let named: &[u8] = match text {
            "de" => b"KDTLS",
            "nl" => b"KDTLP",
            "fr" => b"RDTFC",
            "es" | "it" => b"RDTAC",
            "en" => b"KQRBN",
            _ => text.as_bytes(),
        };
        let bad = || BadPieceLetters(text.to_string());
        let letters: [u8; 5] = named.try_into().map_err(|_| bad())?;
        let distinct = letters
            .iter()
            .enumerate()
            .all(|(i, a)| letters.iter().skip(i + 1).all(|b| a != b));
        if !distinct
            || letters
                .iter()
                .any(|&b| !b.is_ascii_uppercase() || b == b'O')
        {
            return Err(bad());
        }
        Ok(PieceLetters(letters))
    }

    /// Whether these are the English letters, which need no translation.
    pub fn is_english(self) -> bool {
        self.0 == ENGLISH
    }

    /// The English letter for a letter of this language, if it is one.
    fn english(self, letter: u8) -> Option<u8> {
        let at = self.0.iter().position(|&b| b == letter)?;
        ENGLISH.get(at).copied()
    }

    fn name(self) -> String {
        let letters = String::from_utf8_lossy(&self.0).into_owned();
        match LANGUAGES.iter().find(|(l, _)| **l == self.0) {
            Some((_, language)) => format!("{language} piece letters {letters}"),
            None => format!("piece letters {letters}"),
        }
    }
}

/// A token read as the SAN it stands for.
pub struct Reading {
    pub san_plus: SanPlus,
    /// What was non-standard about it (`None`: nothing, it is standard SAN).
    pub why: Option<String>,
}

/// Rewrites localized piece letters (the leading piece and a promotion piece) to English.
pub fn translate(text: &[u8], letters: PieceLetters) -> Option<Vec<u8>> {
    let mut out = text.to_vec();
    let mut changed = false;
    if let Some(first) = out.first_mut()
        && let Some(english) = letters.english(*first)
    {
        changed |= english != *first;
        *first = english;
    }
    if let Some(eq) = out.iter().position(|&b| b == b'=')
        && let Some(piece) = out.get_mut(eq + 1)
        && let Some(english) = letters.english(*piece)
    {
        changed |= english != *piece;
        *piece = english;
    }
    changed.then_some(out)
}

/// Reads a token as a move: standard SAN first, then the non-standard forms that mean
/// exactly one move. `None`: the token means no move.
pub fn read(pos: &Chess, text: &[u8], letters: Option<PieceLetters>) -> Option<Reading> {
    if let Some(letters) = letters
        && let Some(english) = translate(text, letters)
    {
        return read(pos, &english, None).map(|reading| reading.noting(&letters.name()));
    }
    if let Ok(san_plus) = SanPlus::from_ascii(text) {
        if let Some(reading) = capture_marked_lan(pos, text, san_plus) {
            return Some(reading);
        }
        if !over_specified_pawn(san_plus.san) {
            let why = lowercase_promotion(san_plus.san, text)
                .then(|| "a promotion piece in lower case".to_string());
            return Some(Reading { san_plus, why });
        }
        // `e2e4`, `g1f3`: shakmaty reads a pawn from e2 / g1; the board says which piece.
        let (body, _, _) = split_suffix(text);
        let san = long_algebraic(pos, body).unwrap_or(san_plus.san);
        return Some(Reading {
            san_plus: SanPlus {
                san,
                suffix: san_plus.suffix,
            },
            why: Some("long algebraic or UCI notation".to_string()),
        });
    }
    if let Some(english) = figurines(text) {
        return read(pos, &english, None).map(|reading| reading.noting("figurine notation"));
    }
    nonstandard(pos, text)
}

impl Reading {
    /// The reading with `what` put first among the reasons it is not standard SAN.
    fn noting(mut self, what: &str) -> Reading {
        self.why = Some(match self.why {
            Some(why) => format!("{what}; {why}"),
            None => what.to_string(),
        });
        self
    }
}

/// `♘f3`, `♞xe4`, `e8=♕`, `♙e4`: figurines (U+2654 to U+265F, white and black) as the
/// English letters; a pawn's figurine is left out, as SAN leaves out its letter. `None`
/// where the text holds no figurine (another sign of that Unicode block, `♀`, is none):
/// the text read again unchanged would be read so for ever.
fn figurines(text: &[u8]) -> Option<Vec<u8>> {
    const FIGURINE: &[u8] = &[0xe2, 0x99];
    if !text.windows(2).any(|pair| pair == FIGURINE) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some((&byte, tail)) = rest.split_first() {
        if let Some(&[0xe2, 0x99, code]) = rest.get(..3)
            && (0x94..=0x9f).contains(&code)
        {
            changed = true;
            // ♔♕♖♗♘♙ are 0x94..0x99, ♚♛♜♝♞♟ the same six 6 further on.
            let at = usize::from((code - 0x94) % 6);
            if let Some(&letter) = b"KQRBN".get(at) {
                out.push(letter);
            }
            rest = rest.get(3..).unwrap_or_default();
        } else {
            out.push(byte);
            rest = tail;
        }
    }
    changed.then_some(out)
}

/// `NF3`, `nf3`, `qxd8`: a piece letter in lower case or a square's file in upper case,
/// read only when the token so mended names exactly one legal move. A lower-case `b` is
/// a pawn's file, never a bishop (`bxc3`).
fn wrong_case(pos: &Chess, body: &[u8]) -> Option<San> {
    let (&first, rest) = body.split_first()?;
    let first = match first {
        b'k' | b'q' | b'r' | b'n' => first.to_ascii_uppercase(),
        b'K' | b'Q' | b'R' | b'B' | b'N' => first,
        _ => return None,
    };
    let mut mended = vec![first];
    mended.extend(rest.iter().map(|&b| match b {
        b'A'..=b'H' | b'X' => b.to_ascii_lowercase(),
        _ => b,
    }));
    if mended == body {
        return None;
    }
    let san = San::from_ascii(&mended).ok()?;
    san.to_move(pos).is_ok().then_some(san)
}

/// `O–O`, `0—0`, `O‑O‑O`, `O−O`: castling with an en dash, em dash, no-break hyphen or
/// minus sign for the hyphen; `None` when no such dash is there.
fn castling_with_dash(body: &[u8]) -> Option<(CastlingSide, &'static str)> {
    const DASHES: [&str; 4] = ["\u{2013}", "\u{2014}", "\u{2011}", "\u{2212}"];
    if body.first()? & 0x80 != 0 || !body.contains(&0xe2) {
        return None;
    }
    let mut hyphens = Vec::with_capacity(body.len());
    let mut rest = body;
    while let Some((&byte, tail)) = rest.split_first() {
        match DASHES.iter().find(|dash| rest.starts_with(dash.as_bytes())) {
            Some(dash) => {
                hyphens.push(b'-');
                rest = rest.get(dash.len()..).unwrap_or_default();
            }
            None => {
                hyphens.push(byte);
                rest = tail;
            }
        }
    }
    let side = zeros_castling(&hyphens)
        .or_else(|| lowercase_castling(&hyphens))
        .or(match hyphens.as_slice() {
            b"O-O" => Some(CastlingSide::KingSide),
            b"O-O-O" => Some(CastlingSide::QueenSide),
            _ => None,
        })?;
    Some((side, "castling written with a dash that is not a hyphen"))
}

/// `Nxg1f3`: shakmaty reads a capture by the knight on g1; as long algebraic notation
/// (the origin square after the marker) it is the move g1-f3. Read so only when the
/// capture is illegal and the long algebraic move is legal.
fn capture_marked_lan(pos: &Chess, text: &[u8], san_plus: SanPlus) -> Option<Reading> {
    let San::Normal {
        file: Some(_),
        rank: Some(_),
        capture: true,
        ..
    } = san_plus.san
    else {
        return None;
    };
    if san_plus.san.to_move(pos).is_ok() {
        return None;
    }
    let (body, _, _) = split_suffix(text);
    let san = long_algebraic(pos, body)?;
    san.to_move(pos).ok()?;
    Some(Reading {
        san_plus: SanPlus {
            san,
            suffix: san_plus.suffix,
        },
        why: Some("long algebraic or UCI notation".to_string()),
    })
}

/// `e8=q`: shakmaty accepts it, the standard writes the piece in upper case.
fn lowercase_promotion(san: San, text: &[u8]) -> bool {
    matches!(
        san,
        San::Normal {
            promotion: Some(_),
            ..
        }
    ) && text
        .windows(2)
        .any(|pair| matches!(pair, [b'=', letter] if letter.is_ascii_lowercase()))
}

/// `e2e4` parses as SAN (a pawn with file and rank given) but is UCI, not SAN.
fn over_specified_pawn(san: San) -> bool {
    matches!(
        san,
        San::Normal {
            role: Role::Pawn,
            rank: Some(_),
            ..
        }
    )
}

fn nonstandard(pos: &Chess, text: &[u8]) -> Option<Reading> {
    let mut whys: Vec<&str> = Vec::new();
    let mut body = text;
    if let Some(rest) = strip_ellipsis(body) {
        body = rest;
        whys.push("a move number glued with `…`");
    }
    let (rest, suffix, odd_suffix) = split_suffix(body);
    body = rest;
    if odd_suffix {
        whys.push("a non-standard check or mate sign");
    }
    for ep in [&b"e.p."[..], b"e.p", b"ep"] {
        if let Some(rest) = body.strip_suffix(ep)
            && rest.len() >= 2
        {
            body = rest;
            whys.push("en passant marked with `e.p.`");
            break;
        }
    }
    let san = if let Some(side) = zeros_castling(body) {
        whys.push("castling written with zeros");
        San::Castle(side)
    } else if let Some(side) = lowercase_castling(body) {
        whys.push("castling written in lower case");
        San::Castle(side)
    } else if let Ok(san) = San::from_ascii(body) {
        if over_specified_pawn(san) {
            // `h5xf7++`: as for `h5xf7#`, the board says which piece stands on h5.
            whys.push("long algebraic or UCI notation");
            long_algebraic(pos, body).unwrap_or(san)
        } else {
            san
        }
    } else if let Some(san) = promotion_without_equals(body) {
        whys.push("a promotion written without `=`");
        san
    } else if let Some(san) = long_algebraic(pos, body) {
        whys.push("long algebraic or UCI notation");
        san
    } else if let Some((side, why)) = castling_with_dash(body) {
        whys.push(why);
        San::Castle(side)
    } else if let Some(san) = wrong_case(pos, body) {
        whys.push("a piece letter or a file in the wrong case");
        san
    } else {
        return None;
    };
    if whys.is_empty() {
        return None;
    }
    Some(Reading {
        san_plus: SanPlus { san, suffix },
        why: Some(whys.join("; ")),
    })
}

/// `1…e5`, `12…Nf6`, `…e5`: the move after a glued Unicode ellipsis.
fn strip_ellipsis(text: &[u8]) -> Option<&[u8]> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = text.get(digits..)?;
    rest.strip_prefix("…".as_bytes())
        .or_else(|| rest.strip_prefix(b"..").filter(|_| digits > 0))
}

/// Splits off `+`, `#`, `++`, `†`, `‡`; the flag says the sign was non-standard.
fn split_suffix(text: &[u8]) -> (&[u8], Option<Suffix>, bool) {
    if let Some(body) = text.strip_suffix(b"++") {
        return (body, Some(Suffix::Checkmate), true);
    }
    if let Some(body) = text.strip_suffix("†".as_bytes()) {
        return (body, Some(Suffix::Check), true);
    }
    if let Some(body) = text.strip_suffix("‡".as_bytes()) {
        return (body, Some(Suffix::Checkmate), true);
    }
    match text {
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate), false),
        [body @ .., b'+'] => (body, Some(Suffix::Check), false),
        _ => (text, None, false),
    }
}

fn zeros_castling(body: &[u8]) -> Option<CastlingSide> {
    match body {
        b"0-0" => Some(CastlingSide::KingSide),
        b"0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// `o-o`, `o-o-o`: castling with lower-case letters.
fn lowercase_castling(body: &[u8]) -> Option<CastlingSide> {
    match body {
        b"o-o" => Some(CastlingSide::KingSide),
        b"o-o-o" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// `e8Q`, `e8/Q`, `e8=q`, `dxe8N`: a pawn move with its promotion piece written oddly.
fn promotion_without_equals(body: &[u8]) -> Option<San> {
    let (&letter, rest) = body.split_last()?;
    let piece = Role::from_char(char::from(letter.to_ascii_lowercase()))?;
    let rest = rest
        .strip_suffix(b"=")
        .or_else(|| rest.strip_suffix(b"/"))
        .unwrap_or(rest);
    match San::from_ascii(rest).ok()? {
        San::Normal {
            role: Role::Pawn,
            file,
            rank,
            capture,
            to,
            promotion: None,
        } if to.rank() == Rank::First || to.rank() == Rank::Eighth => Some(San::Normal {
            role: Role::Pawn,
            file,
            rank,
            capture,
            to,
            promotion: Some(piece),
        }),
        _ => None,
    }
}

/// `e2-e4`, `Ng1-f3`, `Nxg1f3`, `Bb5xc6`, `g1f3`, `e7e8q`, `e1g1`, Chess960 king-takes-rook:
/// the origin and target squares, read as a fully specified SAN (or castling).
fn long_algebraic(pos: &Chess, body: &[u8]) -> Option<San> {
    let (role_letter, rest) = match body.first() {
        Some(&c @ (b'K' | b'Q' | b'R' | b'B' | b'N' | b'P')) => (Some(c), body.get(1..)?),
        _ => (None, body),
    };
    let mut rest = rest.strip_prefix(b"x").unwrap_or(rest);
    let from = square(rest.get(..2)?)?;
    rest = rest.get(2..)?;
    match rest.first() {
        Some(b'-') => rest = rest.get(1..)?,
        Some(b'x' | b':') => rest = rest.get(1..)?,
        _ => {}
    }
    let to = square(rest.get(..2)?)?;
    rest = rest.get(2..)?;
    let rest = rest.strip_prefix(b"=").unwrap_or(rest);
    let promotion = match rest {
        [] => None,
        [letter] => Some(Role::from_char(char::from(letter.to_ascii_lowercase()))?),
        _ => return None,
    };
    let board = pos.board();
    let role = match role_letter {
        Some(letter) => Role::from_char(char::from(letter.to_ascii_lowercase()))?,
        None => board.role_at(from).unwrap_or(Role::Pawn),
    };
    if role == Role::King
        && board.king_of(pos.turn()) == Some(from)
        && promotion.is_none()
        && let Some(side) = castling_side(pos, from, to)
    {
        return Some(San::Castle(side));
    }
    // The squares say it all: a capture marker in long algebraic notation is decoration.
    let capture = board.by_color(!pos.turn()).contains(to)
        || (role == Role::Pawn && from.file() != to.file());
    Some(San::Normal {
        role,
        file: Some(from.file()),
        rank: Some(from.rank()),
        capture,
        to,
        promotion,
    })
}

/// A king move that stands for castling: two squares along the back rank, or onto the
/// own castling rook (Chess960 style).
fn castling_side(pos: &Chess, from: Square, to: Square) -> Option<CastlingSide> {
    let own_rook = (pos.castles().castling_rights() & pos.us()).contains(to);
    let two_squares =
        from.rank() == to.rank() && from.distance(to) == 2 && pos.castles().mode().is_standard();
    (own_rook || two_squares).then(|| {
        if to.file() > from.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    })
}

fn square(text: &[u8]) -> Option<Square> {
    Square::from_ascii(text).ok()
}

/// For a token that names no legal move: the languages whose piece letters would have
/// read it as a legal move, and that move (`with --piece-letters KDTLS (German) it reads
/// as Bb5`). `letters`: those the replay used (`None`: English). No guess is played.
pub fn other_letters(pos: &Chess, text: &[u8], letters: Option<PieceLetters>) -> Option<String> {
    let used = letters.map_or(ENGLISH, |l| l.0);
    let mut hits: Vec<String> = Vec::new();
    let mut read_as: Option<San> = None;
    for (other, language) in LANGUAGES {
        if *other == used {
            continue;
        }
        let english;
        let candidate = if *other == ENGLISH {
            text
        } else {
            match translate(text, PieceLetters(*other)) {
                Some(translated) => {
                    english = translated;
                    &english
                }
                None => continue,
            }
        };
        let Some(reading) = read(pos, candidate, None) else {
            continue;
        };
        let Ok(m) = reading.san_plus.san.to_move(pos) else {
            continue;
        };
        let san = San::from_move(pos, m);
        if read_as.is_some_and(|first| first != san) {
            continue;
        }
        read_as = Some(san);
        hits.push(format!(
            "{} ({language})",
            String::from_utf8_lossy(other.as_slice())
        ));
    }
    let san = read_as?;
    Some(format!(
        "with --piece-letters {} it reads as {san}",
        hits.join(" or ")
    ))
}

/// Why a token that means no move was rejected.
pub fn why_not_a_move(text: &str) -> String {
    format!("`{text}` is not a move in standard algebraic notation")
}

/// A SAN that names no legal move as written, with its capture marker mended where the
/// token can only mean that: a piece move with `x` onto an empty square or without `x`
/// onto an enemy piece (`Nxf3`, `Bc6`, `Kd7`, `Bb5c6`), and a pawn capture written as two
/// files (`ed5`). A pawn push (`d5`) and a pawn "capture" along its file (`exe4`) are not
/// loose spellings of another move, and stay illegal. The caller asks shakmaty whether
/// the mended SAN names one legal move, several, or none.
pub fn mended_capture(san: San) -> Option<San> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let pawn_files = role == Role::Pawn && !capture && file.is_some_and(|f| f != to.file());
    (role != Role::Pawn || pawn_files).then_some(San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    })
}

/// What makes `written` (the token's SAN, `text` without its check sign) differ from
/// `standard`, the standard SAN of the move it names; `None` when it is standard.
pub fn departure(written: San, text: &[u8], standard: San) -> Option<String> {
    if standard.to_string().as_bytes() == text {
        return None;
    }
    let mut whys: Vec<&str> = Vec::new();
    if let (
        San::Normal {
            role,
            file,
            rank,
            capture,
            ..
        },
        San::Normal {
            file: standard_file,
            rank: standard_rank,
            capture: captures,
            ..
        },
    ) = (written, standard)
    {
        match (capture, captures) {
            (false, true) if role == Role::Pawn => whys.push("a pawn capture written without `x`"),
            (false, true) => whys.push("a capture written without `x`"),
            (true, false) => whys.push("`x` on a move that captures nothing"),
            _ => {}
        }
        if role == Role::Pawn && file.is_none() && standard_file.is_some() {
            whys.push("a pawn capture without the file it comes from");
        } else if (file.is_some() && standard_file.is_none())
            || (rank.is_some() && standard_rank.is_none())
        {
            whys.push(
                "an origin file or rank the move does not need: no other such piece can go there",
            );
        } else if file != standard_file || rank != standard_rank {
            whys.push("the piece told apart by another file or rank than standard SAN uses");
        }
    }
    if whys.is_empty() {
        whys.push(if text.first() == Some(&b'P') {
            "a `P` for the pawn, which SAN leaves out"
        } else {
            "not spelled as standard SAN"
        });
    }
    Some(whys.join("; "))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use shakmaty::Chess;
    use shakmaty::san::San;

    use super::{departure, figurines, mended_capture, read};

    fn san(text: &str) -> San {
        text.parse().unwrap()
    }

    /// Only a piece move's capture mark and a two-file pawn capture are mended.
    #[test]
    fn mends_only_what_can_mean_one_other_move() {
        for (written, mended) in [
            ("Bc6", Some("Bxc6")),
            ("Nxf3", Some("Nf3")),
            ("Bb5c6", Some("Bb5xc6")),
            ("Kd7", Some("Kxd7")),
            ("ed5", Some("exd5")),
            ("d5", None),
            ("exe4", None),
            ("exd5", None),
            ("O-O", None),
        ] {
            assert_eq!(mended_capture(san(written)), mended.map(san), "{written}");
        }
    }

    /// A figurine is read as its letter; a sign of the same Unicode block that is no
    /// figurine (`♀`, `♠`) leaves the token as it is, read once and not again (it was
    /// read again for ever: a stack overflow on a fuzzed game).
    #[test]
    fn only_figurines_are_read_as_letters() {
        assert_eq!(figurines("♘f3".as_bytes()), Some(b"Nf3".to_vec()));
        assert_eq!(figurines("♙e4".as_bytes()), Some(b"e4".to_vec()));
        let pos = Chess::default();
        for sign in ["♀0", "♠", "e4♣", "♀♀"] {
            assert_eq!(figurines(sign.as_bytes()), None, "{sign}");
            assert!(read(&pos, sign.as_bytes(), None).is_none(), "{sign}");
        }
        let reading = read(&pos, "♘f3".as_bytes(), None).unwrap();
        assert_eq!(reading.san_plus.to_string(), "Nf3");
    }

    #[test]
    fn names_what_departs_from_standard_san() {
        let pos = Chess::default();
        let standard = |text: &str| San::from_move(&pos, san(text).to_move(&pos).unwrap());
        assert_eq!(departure(san("Nf3"), b"Nf3", standard("Nf3")), None);
        let why = departure(san("Ngf3"), b"Ngf3", standard("Nf3")).unwrap();
        assert!(why.contains("does not need"), "{why}");
        let why = departure(san("Pe4"), b"Pe4", standard("e4")).unwrap();
        assert!(why.contains("`P`"), "{why}");
    }
}
