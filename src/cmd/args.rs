//! The flags the commands share, parsed into the parts' own types: the global flags, the
//! input flags of every game-reading command (`InputArgs`, with the game filters'
//! `FilterArgs`), `-o`, `--select`/`--ignore`, the one `--format` parser
//! (`format_values`) and the value enums of several commands. Clap stays here and in the
//! commands' files; the parts below `cmd` never see it.

use std::marker::PhantomData;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, ValueEnum};

use crate::filter::{DedupeBy, Expr, Filters, Identity, Material};
use crate::output::Format;
use crate::output::findings::CodeFilter;
use crate::output::pgn::MoveStyle;
use crate::pgn::{TextDecoder, UnknownEncoding};
use crate::pipeline::{GameRange, Shard};
use crate::rules::fen::style::{CastlingLetters, EpConvention, FenStyle};
use crate::rules::mate_check::MateCheck;
use crate::rules::replay::notation::{BadPieceLetters, PieceLetters};

/// Flags that apply to every command.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// No progress bar and no summary line on stderr (files asked for are still written;
    /// findings and errors are still reported, so fen and convert name what made them exit 1).
    #[arg(short, long, global = true, help_heading = "Output")]
    pub quiet: bool,

    /// Colour in text output: auto (only on a terminal, and not when NO_COLOR is set),
    /// always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value_t = ColorChoice::Auto,
        help_heading = "Output"
    )]
    pub color: ColorChoice,

    /// Worker threads (default: all cores): each reads a chunk of whole games in turn,
    /// splits and replays it, and writes results when theirs come next; with N >= 2 a
    /// compressed input has one more thread that decompresses ahead of them, and
    /// `--format parquet` one that compresses the row groups behind them. `--threads
    /// 1`, and a `--games` range, run the whole pipeline on one thread. Output never
    /// depends on it. At most 4 per core: more is cut to that, with a warning.
    #[arg(
        short = 'j',
        long,
        global = true,
        value_name = "N",
        help_heading = "Performance"
    )]
    pub threads: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The flags of every command that reads games.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Files, folders (every *.pgn, *.pgn.gz, *.pgn.zst, *.pgn.bz2 and *.parquet below them,
    /// in byte-wise path order) or `-` for stdin (the default when none is given). A
    /// Parquet file with a string `movetext` column is a table of games, one per row, its
    /// other columns tags (the lichess database's layout).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Text encoding of the input: `auto` (UTF-8 where valid, else Latin-1) or any
    /// WHATWG label such as `latin1`, `windows-1252`, `cp437`/`ibm437` or `cp850`.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "auto",
        value_parser = parse_encoding,
        help_heading = "Input"
    )]
    pub encoding: TextDecoder,

    /// Only the games whose 0-based index within the whole input, modulo N, is K. The
    /// index counts every game of every input in order, so N workers given the same
    /// inputs and K = 0..N-1 split them without overlap or gap.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = "Input")]
    pub shard: Option<Shard>,

    /// Only game N (1-based, counted over the whole input in order; with one file it is
    /// the `game N` of the findings). Reading stops after it. `FILE:N` picks game N of
    /// that one input file, named as the findings name it (`archive/b.pgn:3`).
    #[arg(long, value_name = "[FILE:]N", value_parser = parse_game, conflicts_with = "games", help_heading = "Input")]
    pub game: Option<GamePick>,

    /// Only games A to B, both included (1-based, counted like --game): `10..20`, `100..`
    /// (to the end), `..50`. Combined with --shard, a game must satisfy both.
    #[arg(long, value_name = "A..B", value_parser = parse_games, help_heading = "Input")]
    pub games: Option<GameRange>,

    /// Who can still mate (FIDE 5.2.2 dead positions, 6.9 games lost on time), asked of
    /// every game's final position: `fast` (a sound quick check behind a cheap gate),
    /// `full` (adds the complete search where `fast` does not decide; slower) or
    /// `material` (insufficient material alone). A side is said unable to mate only
    /// when that is proved.
    #[arg(
        long,
        value_name = "LEVEL",
        value_enum,
        default_value_t = MateCheckArg::Fast,
        help_heading = "Input"
    )]
    pub mate_check: MateCheckArg,

    /// The letters the input writes for king, queen, rook, bishop and knight: KQRBN
    /// (English), KDTLS (German), KDTLP (Dutch), RDTAC (Spanish, Italian), RDTFC (French).
    /// Each move so read is reported as info `san.notation`; output is written in English.
    #[arg(
        long,
        value_name = "LETTERS",
        default_value = "KQRBN",
        value_parser = parse_piece_letters,
        help_heading = "Input"
    )]
    pub piece_letters: PieceLetters,

    /// `--where`, `--reaches`, `--material`, `--dedupe` (judged after --games/--shard).
    #[command(flatten)]
    pub filters: FilterArgs,
}

/// `--piece-letters LETTERS`: a bad value is a usage error, in clap's format.
fn parse_piece_letters(text: &str) -> Result<PieceLetters, BadPieceLetters> {
    PieceLetters::parse(text)
}

/// `--mate-check`: how far the analysis of who can still mate goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MateCheckArg {
    /// A sound quick check (chasolver's fast one) behind a cheap gate.
    Fast,
    /// The quick check, then the complete search where it does not decide.
    Full,
    /// Insufficient material alone (the behaviour of earlier versions).
    Material,
}

impl From<MateCheckArg> for MateCheck {
    fn from(level: MateCheckArg) -> MateCheck {
        match level {
            MateCheckArg::Fast => MateCheck::Fast,
            MateCheckArg::Full => MateCheck::Full,
            MateCheckArg::Material => MateCheck::Material,
        }
    }
}

impl InputArgs {
    /// The games `--game` or `--games` pick, if either was given.
    pub fn game_range(&self) -> Option<GameRange> {
        self.game.as_ref().map(|pick| pick.range).or(self.games)
    }

    /// The one file `--game FILE:N` names, if it names one.
    pub fn game_file(&self) -> Option<&str> {
        self.game.as_ref().and_then(|pick| pick.file.as_deref())
    }

    /// The piece letters the replay reads: `None` for English, the plain path.
    pub fn piece_letters(&self) -> Option<PieceLetters> {
        (!self.piece_letters.is_english()).then_some(self.piece_letters)
    }
}

/// `--game [FILE:]N`: one game, counted over the whole input or within one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamePick {
    /// The file as findings name it; `None`: N counts over the whole input.
    pub file: Option<String>,
    pub range: GameRange,
}

/// `--encoding NAME`: a bad name is a usage error, in clap's format.
fn parse_encoding(text: &str) -> Result<TextDecoder, UnknownEncoding> {
    TextDecoder::from_label(text)
}

fn parse_game_number(text: &str, whole: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(format!("games are counted from 1 (got `{whole}`)")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}` in `{whole}` is not a game number")),
    }
}

fn parse_game(text: &str) -> Result<GamePick, String> {
    let (file, number) = match text.rsplit_once(':') {
        Some((file, number)) if !file.is_empty() => (Some(file.to_string()), number),
        _ => (None, text),
    };
    let n = parse_game_number(number, text)?;
    Ok(GamePick {
        file,
        range: GameRange {
            first: n,
            last: Some(n),
        },
    })
}

fn parse_games(text: &str) -> Result<GameRange, String> {
    let Some((a, b)) = text.split_once("..") else {
        return Err(format!(
            "`{text}` is not A..B (for example 10..20, 100.. or ..50)"
        ));
    };
    let first = if a.trim().is_empty() {
        1
    } else {
        parse_game_number(a, text)?
    };
    let last = if b.trim().is_empty() {
        None
    } else {
        Some(parse_game_number(b, text)?)
    };
    if last.is_some_and(|last| last < first) {
        return Err(format!("`{text}` ends before it starts"));
    }
    Ok(GameRange { first, last })
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N (for example 0/4)"))?;
    let index: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("K in `{text}` is not a number"))?;
    let count: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("N in `{text}` is not a number"))?;
    if count == 0 || index >= count {
        return Err(format!(
            "K must be below N and N above 0 (got {index}/{count})"
        ));
    }
    Ok(Shard { index, count })
}

/// `-o FILE`: where data goes (stdout by default).
#[derive(Debug, Clone, Args)]
pub struct OutputArg {
    /// Write to FILE instead of stdout (a regular file is written under a temporary name
    /// and renamed when complete, through a symbolic link to its target; an input, or
    /// another output of the command, is refused).
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
}

/// How a FEN is written (`fen`, and `moves --fen`): one pair of flags, one `FenStyle`.
#[derive(Debug, Clone, Copy, Args)]
pub struct FenStyleArgs {
    /// En passant field of a FEN written: always (after every double step, the PGN
    /// standard), pseudo (an enemy pawn stands ready: X-FEN) or legal (a legal capture
    /// exists: python-chess).
    #[arg(long, value_enum, default_value_t = EpArg::Always, help_heading = "Rules")]
    pub ep: EpArg,

    /// Castling letters of a FEN written: xfen (`KQkq`, file letters only where needed)
    /// or shredder (rook files always, `HAha`).
    #[arg(long, value_enum, default_value_t = CastlingArg::Xfen, help_heading = "Rules")]
    pub castling: CastlingArg,
}

impl FenStyleArgs {
    pub fn style(self) -> FenStyle {
        FenStyle {
            ep: self.ep.into(),
            castling: self.castling.into(),
        }
    }
}

/// `--ep`: when the en passant field names a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EpArg {
    /// After every double step (the PGN standard, pgn-extract).
    Always,
    /// Only when an enemy pawn stands ready to capture (X-FEN).
    Pseudo,
    /// Only when a legal en passant capture exists (python-chess, lichess).
    Legal,
}

impl From<EpArg> for EpConvention {
    fn from(ep: EpArg) -> EpConvention {
        match ep {
            EpArg::Always => EpConvention::Always,
            EpArg::Pseudo => EpConvention::Pseudo,
            EpArg::Legal => EpConvention::Legal,
        }
    }
}

/// `--castling`: how castling rights are lettered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CastlingArg {
    /// `KQkq`, with a file letter only where `K`/`Q` would be ambiguous (Chess960).
    Xfen,
    /// The rook's file letter always (`HAha`).
    Shredder,
}

impl From<CastlingArg> for CastlingLetters {
    fn from(castling: CastlingArg) -> CastlingLetters {
        match castling {
            CastlingArg::Xfen => CastlingLetters::Xfen,
            CastlingArg::Shredder => CastlingLetters::Shredder,
        }
    }
}

/// The game filter flags, flattened into every command that reads games.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Only the games for which EXPR holds. Fields: every `stats` column (`plies`,
    /// `termination`, `white_elo`, ...) and every tag by its name (`WhiteElo`, `Event`);
    /// operators, loosest first: `||`, `&&`, `!`, `== != < <= > >= ~ !~` (`~`: contains a
    /// match of the regular expression, a "string"); numbers compare as numbers, other
    /// values byte-wise (`WhiteElo >= 2500` is false for "?"). `(` and `!` nest at most 256
    /// levels deep. Repeat to require several.
    #[arg(
        long = "where",
        value_name = "EXPR",
        value_parser = parse_where,
        help_heading = "Game filters"
    )]
    pub wheres: Vec<Expr>,

    /// Only the games whose main line reaches this position (clocks ignored; en passant
    /// only where a capture is legal).
    #[arg(long, value_name = "FEN", value_parser = Identity::parse, help_heading = "Game filters")]
    pub reaches: Vec<Identity>,

    /// Only the games with a position of exactly this material on the main line: White's
    /// pieces, `v`, Black's (`KRPvKR`, `KQvK`).
    #[arg(long, value_name = "SIG", value_parser = Material::parse, help_heading = "Game filters")]
    pub material: Vec<Material>,

    /// Keep only the first game of each kind (in input order, whatever --threads): the
    /// same start position and main-line moves (`moves`, the default), and with `game`
    /// equal White, Black, Date and Result tags. Costs 18-28 bytes per kept game (a
    /// 128-bit key in a table 58-88% full), and 37-55 more with select --duplicates-csv
    /// (where each first game stands).
    #[arg(
        long,
        value_name = "BY",
        value_enum,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "moves",
        help_heading = "Game filters"
    )]
    pub dedupe: Option<DedupeArg>,
}

impl FilterArgs {
    /// The filters the flags ask for.
    pub fn filters(&self) -> Filters {
        Filters {
            wheres: self.wheres.clone(),
            reaches: self.reaches.clone(),
            material: self.material.clone(),
            dedupe: self.dedupe.map(DedupeBy::from),
        }
    }
}

/// `--where`: compiled once, here; a syntax error is a usage error that shows the place.
fn parse_where(text: &str) -> Result<Expr, String> {
    Expr::compile(text).map_err(|err| err.render(text))
}

/// `--dedupe[=BY]`: what makes two games the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DedupeArg {
    /// Same start position and main-line moves.
    Moves,
    /// Moves, and equal White, Black, Date and Result tags.
    Game,
}

impl From<DedupeArg> for DedupeBy {
    fn from(by: DedupeArg) -> DedupeBy {
        match by {
            DedupeArg::Moves => DedupeBy::Moves,
            DedupeArg::Game => DedupeBy::Game,
        }
    }
}

/// `--select` and `--ignore`, shared by the commands that report findings (validate,
/// report, fen, convert).
#[derive(Debug, Clone, Default, Args)]
pub struct CodeArgs {
    /// Report only the findings whose code starts with one of these, comma-separated
    /// (`--select move.,castling.` or one code). An error that is not reported does not
    /// make the exit code 1.
    #[arg(long, value_name = "CODE,...", help_heading = "Output")]
    pub select: Vec<String>,

    /// Do not report the findings whose code starts with one of these, comma-separated
    /// (`--ignore tag.,san.`). Applies after --select.
    #[arg(long, value_name = "CODE,...", help_heading = "Output")]
    pub ignore: Vec<String>,
}

impl CodeArgs {
    /// The filter the flags make; an entry that starts no code is an error.
    pub fn filter(&self) -> anyhow::Result<CodeFilter> {
        CodeFilter::new(&self.select, &self.ignore)
    }
}

/// The values a command's `--format` takes, in the order its --help lists them.
pub trait FormatList: Clone + Send + Sync + 'static {
    const ACCEPTED: &'static [Format];
}

/// `--format` of a command with a text form (validate, fen, check-fen).
#[derive(Debug, Clone, Copy)]
pub struct TextOrRecords;

impl FormatList for TextOrRecords {
    const ACCEPTED: &'static [Format] =
        &[Format::Text, Format::Jsonl, Format::Csv, Format::Parquet];
}

/// `--format` of a command that writes records only (stats).
#[derive(Debug, Clone, Copy)]
pub struct RecordsOnly;

impl FormatList for RecordsOnly {
    const ACCEPTED: &'static [Format] = &[Format::Csv, Format::Jsonl, Format::Parquet];
}

/// `--format`: the one clap twin of `output::Format`, given the values a command takes
/// (`format_values::<TextOrRecords>()`); any other is refused with clap's message, which
/// names those. It holds nothing, so building the command line allocates no more for it
/// than for a value enum.
#[derive(Debug, Clone, Copy)]
pub struct FormatValues<L>(PhantomData<L>);

pub fn format_values<L: FormatList>() -> FormatValues<L> {
    FormatValues(PhantomData)
}

impl<L: FormatList> TypedValueParser for FormatValues<L> {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let named = value
            .to_str()
            .and_then(|text| L::ACCEPTED.iter().find(|format| format.name() == text));
        if let Some(format) = named {
            return Ok(*format);
        }
        // Not one of them: clap's own refusal, which names the values this command takes.
        let names = L::ACCEPTED.iter().map(|format| format.name());
        let refused = PossibleValuesParser::new(names)
            .parse_ref(cmd, arg, value)
            .err();
        Err(refused.unwrap_or_else(|| clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd)))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            L::ACCEPTED
                .iter()
                .map(|format| PossibleValue::new(format.name())),
        ))
    }
}

/// `--moves`: how moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MoveStyleArg {
    /// Standard algebraic notation with `+`/`#` (`Nf3`, `exd5`, `e8=Q+`).
    San,
    /// UCI (`g1f3`, `e7e8q`; Chess960 castling as king takes rook).
    Uci,
    /// Long algebraic (`Ng1-f3`, `e4xd5`, `e7-e8=Q`) with `+`/`#`.
    Lan,
}

impl From<MoveStyleArg> for MoveStyle {
    fn from(style: MoveStyleArg) -> MoveStyle {
        match style {
            MoveStyleArg::San => MoveStyle::San,
            MoveStyleArg::Uci => MoveStyle::Uci,
            MoveStyleArg::Lan => MoveStyle::Lan,
        }
    }
}

/// `--tags` names become column names: an empty one, or two that differ only in case
/// (DuckDB and Spark compare column names so), would make a table no reader takes.
pub fn check_tag_columns(tags: &[String]) -> anyhow::Result<()> {
    for (i, name) in tags.iter().enumerate() {
        if name.is_empty() {
            anyhow::bail!(
                "--tags: name {} is empty (names are separated by single commas: --tags A,B)",
                i + 1
            );
        }
        let folded = name.to_lowercase();
        if let Some(first) = tags
            .iter()
            .take(i)
            .find(|other| other.to_lowercase() == folded)
        {
            anyhow::bail!(
                "--tags: `{name}` repeats `{first}` (column names must differ, ignoring case)"
            );
        }
    }
    Ok(())
}
