//! `pgnkit convert`: re-export PGN as clean UTF-8 with standard SAN, the tag roster
//! first and 80-column movetext; comments, NAGs and variations kept.

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::common;
use crate::exit::ExitStatus;
use crate::input::RawGame;
use crate::output::Output;
use crate::output::pgn::{MoveStyle, Movetext, move_text, ordered_tags, write_game};
use crate::rules::movetext::{Step, walk};
use crate::rules::result::GameResult;
use crate::rules::setup::start_position;
use crate::rules::{GameReport, ReplayOptions, Status, replay};

/// Re-export PGN: standard SAN, tag roster order, 80-column movetext.
///
/// Each game is written as clean UTF-8: the seven-tag roster first (missing tags as `?`,
/// Date as `????.??.??`), the other tags in input order, moves in standard SAN with
/// correct `+`/`#`, comments as `{ ... }` (whitespace collapsed), `!`/`?` and
/// annotation symbols as `$N` NAGs (`D`, the diagram mark, is dropped), variations
/// replayed from their own positions. A variation with an illegal move is kept up to
/// that move, followed by a comment naming the move and what is wrong; an error in the
/// main line is handled the same way (or the game is skipped with --skip-invalid), and
/// the error is reported on stderr (exit 1). Games that cannot start (unsupported
/// variant, invalid [FEN]) are reported and skipped. The termination marker and the
/// Result tag are R (the Result tag if it holds a result, else the marker found, else
/// `*`). In SAN the output converts to itself byte for byte.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// How moves are written: san (`Nf3`), uci (`g1f3`) or lan (`Ng1-f3`, `e7-e8=Q`).
    #[arg(long, value_enum, default_value_t = MoveStyle::San, help_heading = "Output")]
    pub moves: MoveStyle,

    /// Leave comments out.
    #[arg(long, help_heading = "Output")]
    pub no_comments: bool,

    /// Leave variations out (only the main line).
    #[arg(long, help_heading = "Output")]
    pub no_variations: bool,

    /// Skip games whose main line has an error instead of writing them up to it.
    #[arg(long, help_heading = "Output")]
    pub skip_invalid: bool,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit convert messy.pgn -o clean.pgn                 standard PGN, 80 columns
  pgnkit convert event.pgn --skip-invalid -o valid.pgn  only games without errors
  pgnkit convert --no-comments --no-variations --moves uci games.pgn
  pgnkit convert archive/ --games 1..10 --moves lan     the first ten games";

/// What the writer needs of each game.
struct Converted {
    report: GameReport,
    /// Tags and movetext, or `None` when the game is not written.
    game: Option<(Vec<(String, String)>, Movetext)>,
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let ctx = Context::new(global, args.output.output.is_none());
    let options = common::replay_options(&args.input)?;
    let (sources, listing_errors) = common::sources(&args.input);
    let pipeline = common::pipeline(&ctx, &args.input);

    let mut output = Output::create(args.output.output.as_deref())?;
    let mut errors = common::StderrErrors::new();
    let totals = pipeline.run(
        &sources,
        |raw| convert_game(raw, &options, &args),
        |_raw, converted| {
            let report = &converted.report;
            errors.report(report)?;
            if let Some((tags, movetext)) = &converted.game {
                write_game(&mut output, tags, movetext)?;
            }
            Ok(())
        },
    )?;
    output.finish()?;
    let errors_count = errors.count;
    errors.finish()?;

    Ok(common::exit_status(
        errors_count,
        totals.input_errors + listing_errors,
    ))
}

fn convert_game(raw: &RawGame, options: &ReplayOptions, args: &Args) -> Converted {
    let report = replay(raw, options, &mut ());
    let writable = match report.status {
        Status::Ok => true,
        Status::Illegal => !args.skip_invalid,
        Status::InvalidSetup | Status::UnsupportedVariant | Status::Unreadable => false,
    };
    let start = start_position(&report.tags).ok().map(|(pos, _)| pos);
    let game = match (writable, start) {
        (true, Some(start)) => {
            let result = GameResult::parse(&report.result).map_or("*", GameResult::as_str);
            // The Result tag always agrees with the marker written (R of SPEC.md).
            let pairs: Vec<(String, String)> = report
                .tags
                .iter()
                .map(|(name, value)| match name {
                    "Result" => (name.to_string(), result.to_string()),
                    _ => (name.to_string(), value.to_string()),
                })
                .collect();
            let tags = ordered_tags(&pairs, result);
            let mut movetext = movetext_of(raw, &start, options, args);
            movetext.push_result(result);
            Some((tags, movetext))
        }
        _ => None,
    };
    Converted { report, game }
}

/// The movetext of every line, as the flags ask for it.
fn movetext_of(
    raw: &RawGame,
    start: &shakmaty::Chess,
    options: &ReplayOptions,
    args: &Args,
) -> Movetext {
    let mut movetext = Movetext::new();
    // Depth inside variations that --no-variations leaves out.
    let mut dropped = 0u32;
    for step in walk(raw, start, options) {
        match step {
            Step::VariationStart if args.no_variations => dropped += 1,
            Step::VariationEnd if args.no_variations => dropped = dropped.saturating_sub(1),
            _ if dropped > 0 => {}
            Step::VariationStart => movetext.start_variation(),
            Step::VariationEnd => movetext.end_variation(),
            Step::Move { before, m, .. } => {
                movetext.push_move(&before, move_text(&before, m, args.moves))
            }
            // `--` in every style: `0000` would read back as a move number.
            Step::Pass { before, .. } => movetext.push_move(&before, "--".to_string()),
            Step::Comment(token) if !args.no_comments => {
                let text = options.decoder.decode(raw.token_text(&token));
                movetext.push_comment(comment_body(&text));
            }
            Step::Comment(_) => {}
            Step::Nag(token) | Step::Glyph(token) => {
                let text = options.decoder.decode(raw.token_text(&token));
                if let Some(nag) = nag_of(&text) {
                    movetext.push_nag(nag);
                } else if let Some(number) = text.strip_prefix('$') {
                    // Past the standard's 255: kept as written, not dropped.
                    movetext.push_nag(number);
                }
            }
            Step::Illegal {
                text,
                code,
                message,
                main_line,
                ..
            } => {
                let rest = if main_line {
                    "the game"
                } else {
                    "the variation"
                };
                movetext.push_comment(&format!(
                    "{text}: {}: {message}; {rest} stops here",
                    code.as_str()
                ));
            }
        }
    }
    movetext
}

/// The text of a `{...}` or `; ...` comment.
fn comment_body(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix('{') {
        rest.strip_suffix('}').unwrap_or(rest)
    } else {
        text.strip_prefix(';').unwrap_or(text)
    }
}

/// The NAG number of `$N`, a move suffix (`!`, `?!`) or an annotation symbol.
fn nag_of(text: &str) -> Option<u8> {
    if let Some(number) = text.strip_prefix('$') {
        return number.parse().ok();
    }
    let nag = match text {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "=" => 10,
        "∞" => 13,
        "+=" | "⩲" => 14,
        "=+" | "⩱" => 15,
        "±" | "+/-" => 16,
        "∓" | "-/+" => 17,
        "+-" => 18,
        "-+" => 19,
        "=/∞" => 44,
        "N" => 146,
        _ => return None,
    };
    Some(nag)
}
