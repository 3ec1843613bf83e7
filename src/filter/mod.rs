//! The game filters of SPEC.md "Game filters": `--where`, `--reaches`, `--material` and
//! `--dedupe`, shared by every command that reads games.
//!
//! A worker judges each game ([`GameFilter::judge`]): tag-only `--where`s before the
//! replay (a game they reject is never replayed), the others on the replay's report, and
//! `--reaches`/`--material` on the positions as the replay reaches them; it also makes the
//! game's `--dedupe` key. Whether a key was seen before is decided by the one consumer that
//! sees the games in input order ([`dedupe::KindsSeen`]).

pub mod dedupe;
pub mod expr;
pub mod material;
pub mod picker;

use std::cell::RefCell;

use shakmaty::Chess;

use crate::pgn::RawGame;
use crate::record::{Cells, Record as _};
use crate::rules::tags::Tags;
use crate::rules::{GameReport, PlyMove, PlyVisitor, ReplayOptions, replay_with_tags};
use crate::stats::StatsRow;
pub use dedupe::DedupeBy;
use dedupe::KeyBuilder;
pub use expr::Expr;
use expr::Field;
pub use material::{Identity, Material};
pub use picker::ColumnPicker;

/// The game filters a run asks for (`cmd::args::FilterArgs` parses them from the flags).
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// `--where`: every one must hold.
    pub wheres: Vec<Expr>,
    /// `--reaches`: the main line reaches each position.
    pub reaches: Vec<Identity>,
    /// `--material`: the main line has a position of each material.
    pub material: Vec<Material>,
    /// `--dedupe`: the first game of each kind.
    pub dedupe: Option<DedupeBy>,
}

/// The most `--reaches` (and `--material`) a run takes: one bit each per game.
const MAX_REACHES: usize = 64;

/// The compiled filters of one run, shared by the worker threads.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    /// `--where`s that read tags only: judged before the replay.
    before_replay: Vec<Expr>,
    /// The others, with the stats columns each reads.
    after_replay: Vec<(Expr, ColumnPicker)>,
    reaches: Vec<Identity>,
    material: Vec<Material>,
    pub dedupe: Option<DedupeBy>,
    /// `select --invert`: the games the other filters reject are selected.
    pub invert: bool,
}

/// A worker's judgement of one game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Verdict {
    /// The filters select it (after `--invert`); `--dedupe` is still to come.
    pub selected: bool,
    /// Its `--dedupe` key, when selected and deduplication is asked for.
    pub key: Option<u128>,
}

/// A game's verdict and, when it is selected, what the command made of it.
#[derive(Debug)]
pub struct Judged<T> {
    pub verdict: Verdict,
    pub value: Option<T>,
}

impl<T> Judged<T> {
    /// Makes the command's value from a selected game's; nothing for the others.
    pub fn map<U>(self, make: impl FnOnce(T) -> U) -> Judged<U> {
        Judged {
            verdict: self.verdict,
            value: self.value.map(make),
        }
    }
}

impl GameFilter {
    pub fn new(args: &Filters) -> anyhow::Result<GameFilter> {
        if args.reaches.len() > MAX_REACHES || args.material.len() > MAX_REACHES {
            anyhow::bail!("at most {MAX_REACHES} --reaches and {MAX_REACHES} --material are taken");
        }
        let (before, after): (Vec<Expr>, Vec<Expr>) =
            args.wheres.iter().cloned().partition(Expr::reads_tags_only);
        let after_replay = after
            .into_iter()
            .map(|expr| {
                let wanted = expr
                    .fields
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, field)| match field {
                        Field::Column(index) => Some((*index, slot)),
                        Field::Tag(_) => None,
                    })
                    .collect();
                (expr, ColumnPicker { wanted })
            })
            .collect();
        Ok(GameFilter {
            before_replay: before,
            after_replay,
            reaches: args.reaches.clone(),
            material: args.material.clone(),
            dedupe: args.dedupe,
            invert: false,
        })
    }

    /// Whether any filter is set (`--dedupe` included).
    pub fn is_active(&self) -> bool {
        !self.before_replay.is_empty()
            || !self.after_replay.is_empty()
            || !self.reaches.is_empty()
            || !self.material.is_empty()
            || self.dedupe.is_some()
    }

    /// Whether a `--where` reads a `stats` column (an opening, clock or evaluation column
    /// among them): only then does a command that shows no figure need them worked out.
    pub fn reads_columns(&self) -> bool {
        !self.after_replay.is_empty()
    }

    /// Judges one game: the one entry point, which `cmd::run::GameRun::judge` calls for
    /// every command. The replay is skipped when tags alone decide and no report is wanted
    /// (`need_report`) nor a `--dedupe` key. Without `need_report`, only the verdict is
    /// wanted: the replay stops as soon as the positions decide it (a `--reaches` position
    /// found, or out of reach), and `visitor` misses the rest. The stats cells a `--where`
    /// reads are made into `columns` (given empty), for the command to reuse; the tags a
    /// tag-only `--where` decoded come back when there is no report to hold them.
    pub fn judge<V: PlyVisitor>(
        &self,
        raw: &RawGame,
        options: &ReplayOptions,
        visitor: &mut V,
        need_report: bool,
        columns: &mut Cells,
    ) -> (Verdict, Option<Box<GameReport>>, Option<Tags>) {
        // Tags a tag-only `--where` decoded are handed on to the replay, not decoded twice.
        let tags = (!self.before_replay.is_empty()).then(|| Tags::decode(raw, &options.decoder));
        let tags_pass = tags.as_ref().is_none_or(|tags| {
            self.before_replay
                .iter()
                .all(|expr| expr.eval(&|slot| tag_value(expr, tags, slot)))
        });
        let replays_positions =
            !self.reaches.is_empty() || !self.material.is_empty() || self.dedupe.is_some();
        // The tags decide when they reject the game, or when nothing else is asked of it.
        if !tags_pass || (self.after_replay.is_empty() && !replays_positions) {
            let selected = tags_pass != self.invert;
            if !selected || (self.dedupe.is_none() && !need_report) {
                // The tags decoded, if any, go to the command (`standings` reads them).
                return (
                    Verdict {
                        selected,
                        key: None,
                    },
                    None,
                    tags,
                );
            }
        }
        let mut watch = FilterWatch {
            filter: self,
            reached: 0,
            material_seen: 0,
            // Only the positions decide: the replay may stop once they have.
            may_stop: !need_report && self.after_replay.is_empty() && self.dedupe.is_none(),
            out_of_reach: false,
            key: self.dedupe.map(|_| KeyBuilder::new()),
        };
        let tags = tags.unwrap_or_else(|| Tags::decode(raw, &options.decoder));
        // Boxed once here: a report is some 780 bytes, which each move on its way to the
        // command's sink (five or more) would copy.
        let report = Box::new(if replays_positions {
            replay_with_tags(raw, tags, options, &mut BothVisitors(&mut watch, visitor))
        } else {
            replay_with_tags(raw, tags, options, visitor)
        });
        let passes = tags_pass
            && watch.all_reached()
            && self
                .after_replay
                .iter()
                .all(|(expr, picker)| where_holds(expr, picker, &report, columns));
        let selected = passes != self.invert;
        let key = match (selected, self.dedupe, watch.key) {
            (true, Some(by), Some(builder)) => Some(builder.finish(raw, &report, by)),
            _ => None,
        };
        (Verdict { selected, key }, Some(report), None)
    }
}

/// A tag's value for a tag-only expression (`""` when absent).
fn tag_value<'t>(expr: &Expr, tags: &'t Tags, slot: usize) -> &'t str {
    match expr.fields.get(slot) {
        Some(Field::Tag(name)) => tags.value(name),
        _ => "",
    }
}

/// Evaluates an expression that reads stats columns on a replayed game. The columns'
/// text goes into buffers kept per thread, so no game allocates for them; the row's
/// cells are made into `columns` once a game, for every `--where` (and `stats`).
fn where_holds(
    expr: &Expr,
    picker: &ColumnPicker,
    report: &GameReport,
    columns: &mut Cells,
) -> bool {
    thread_local! {
        static VALUES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }
    VALUES.with_borrow_mut(|values| {
        if values.len() < expr.fields.len() {
            values.resize(expr.fields.len(), String::new());
        }
        if !picker.wanted.is_empty() {
            if columns.is_empty() {
                StatsRow::new(report, &[]).cells(columns);
            }
            picker.pick_from(columns, values);
        }
        let values = &*values;
        expr.eval(&|slot| match expr.fields.get(slot) {
            Some(Field::Tag(name)) => report.tags.value(name),
            Some(Field::Column(_)) => values.get(slot).map_or("", String::as_str),
            None => "",
        })
    })
}

/// Watches the replay's positions for `--reaches`, `--material` and the `--dedupe` key.
struct FilterWatch<'f> {
    filter: &'f GameFilter,
    /// One bit per `--reaches` reached.
    reached: u64,
    /// One bit per `--material` seen.
    material_seen: u64,
    /// Nothing but the verdict is wanted of the replay (no report, no key, no column).
    may_stop: bool,
    /// A position or material not seen yet can no longer come: the game fails.
    out_of_reach: bool,
    key: Option<KeyBuilder>,
}

impl FilterWatch<'_> {
    fn all_reached(&self) -> bool {
        let all = |count: usize| {
            if count >= 64 {
                u64::MAX
            } else {
                (1u64 << count) - 1
            }
        };
        self.reached == all(self.filter.reaches.len())
            && self.material_seen == all(self.filter.material.len())
    }
}

impl PlyVisitor for FilterWatch<'_> {
    fn position(&mut self, _ply: u32, step: Option<PlyMove<'_>>, pos: &Chess) {
        for (i, target) in self.filter.reaches.iter().enumerate() {
            if target.matches(pos) {
                self.reached |= 1 << i;
            } else if self.may_stop && self.reached & (1 << i) == 0 && target.out_of_reach(pos) {
                self.out_of_reach = true;
            }
        }
        let board = shakmaty::Position::board(pos);
        for (i, material) in self.filter.material.iter().enumerate() {
            if material.matches(board) {
                self.material_seen |= 1 << i;
            } else if self.may_stop
                && self.material_seen & (1 << i) == 0
                && material.out_of_reach(board)
            {
                self.out_of_reach = true;
            }
        }
        if let Some(key) = &mut self.key {
            match step {
                Some(step) => key.ply(step.m),
                None => key.start(pos),
            }
        }
    }

    fn decided(&self) -> bool {
        self.may_stop && (self.out_of_reach || self.all_reached())
    }
}

/// Two visitors that both see every position; the first decides when the replay may stop
/// (the second, the command's, only watches along).
struct BothVisitors<'a, A, B>(&'a mut A, &'a mut B);

impl<A: PlyVisitor, B: PlyVisitor> PlyVisitor for BothVisitors<'_, A, B> {
    fn position(&mut self, ply: u32, step: Option<PlyMove<'_>>, pos: &Chess) {
        self.0.position(ply, step, pos);
        self.1.position(ply, step, pos);
    }

    fn decided(&self) -> bool {
        self.0.decided()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::{Filters, GameFilter};
    use crate::filter::expr::Expr;
    use crate::filter::material::Identity;
    use crate::input::{Limits, Splitter};
    use crate::pgn::RawGame;
    use crate::record::Cells;
    use crate::rules::result::Termination;
    use crate::rules::{Code, PlyMove, PlyVisitor, ReplayOptions, Status};
    use shakmaty::Chess;

    struct Positions(u32);

    impl PlyVisitor for Positions {
        fn position(&mut self, _ply: u32, _step: Option<PlyMove<'_>>, _pos: &Chess) {
            self.0 += 1;
        }
    }

    /// The one game of `pgn`, and the filter of `args` (inverted with `invert`).
    fn game_and_filter(pgn: &[u8], args: Filters, invert: bool) -> (RawGame, GameFilter) {
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let mut filter = GameFilter::new(&args).unwrap();
        filter.invert = invert;
        (raw, filter)
    }

    const ELO_2000: &[u8] = b"[WhiteElo \"2000\"]\n\n1. e4 e5 2. Nf3 *\n";

    fn where_args(where_: &str) -> Filters {
        Filters {
            wheres: vec![Expr::compile(where_).unwrap()],
            ..Filters::default()
        }
    }

    /// The filter's judgement of `raw` with the default options.
    fn judged(
        filter: &GameFilter,
        raw: &RawGame,
        seen: &mut Positions,
        need_report: bool,
    ) -> (
        super::Verdict,
        Option<Box<crate::rules::GameReport>>,
        Option<crate::rules::tags::Tags>,
    ) {
        let options = ReplayOptions::default();
        filter.judge(raw, &options, seen, need_report, &mut Cells::default())
    }

    /// (selected, positions replayed, report given) for a report-wanting command.
    fn judge(where_: &str, invert: bool) -> (bool, u32, bool) {
        let (raw, filter) = game_and_filter(ELO_2000, where_args(where_), invert);
        let mut seen = Positions(0);
        let (verdict, report, _) = judged(&filter, &raw, &mut seen, true);
        let given = report.is_some() && verdict.selected;
        (verdict.selected, seen.0, given)
    }

    /// (selected, positions replayed) for `select`, which wants no report.
    fn select(where_: &str, invert: bool) -> (bool, u32) {
        let (raw, filter) = game_and_filter(ELO_2000, where_args(where_), invert);
        let mut seen = Positions(0);
        let (verdict, report, _) = judged(&filter, &raw, &mut seen, false);
        assert_eq!(report.is_some(), seen.0 > 0);
        (verdict.selected, seen.0)
    }

    /// Where no report is wanted, a tag-only --where replays no game at all, selected or
    /// not (select --where 'WhiteElo >= 2500' only splits and reads tags).
    #[test]
    fn a_tag_only_filter_replays_no_game_for_select() {
        assert_eq!(select("WhiteElo >= 1500", false), (true, 0));
        assert_eq!(select("WhiteElo >= 2500", false), (false, 0));
        assert_eq!(select("WhiteElo >= 2500", true), (true, 0));
        assert_eq!(select("WhiteElo >= 1500", true), (false, 0));
        // A column needs the replay.
        assert_eq!(select("plies > 2", false), (true, 4));
    }

    /// A tag-only --where in a run without reports hands on the tags it decoded (for
    /// `standings`, which reads only tags), and none where the replay's report has them.
    #[test]
    fn the_tags_a_tag_only_filter_decoded_are_handed_on() {
        let (raw, filter) = game_and_filter(ELO_2000, where_args("WhiteElo >= 1500"), false);
        let (verdict, report, tags) = judged(&filter, &raw, &mut Positions(0), false);
        assert!(verdict.selected && report.is_none());
        assert_eq!(
            tags.map(|t| t.value("WhiteElo").to_string()),
            Some("2000".into())
        );
        let (_, report, tags) = judged(&filter, &raw, &mut Positions(0), true);
        assert!(report.is_some() && tags.is_none());
    }

    /// (selected, positions replayed) of `pgn` under `--reaches fen`, without a report.
    fn reaches(pgn: &[u8], fen: &str, need_report: bool) -> (bool, u32) {
        let args = Filters {
            reaches: vec![Identity::parse(fen).unwrap()],
            ..Filters::default()
        };
        let (raw, filter) = game_and_filter(pgn, args, false);
        let mut seen = Positions(0);
        let (verdict, _, _) = judged(&filter, &raw, &mut seen, need_report);
        (verdict.selected, seen.0)
    }

    /// After 1. e4 e5 2. Nf3.
    const AFTER_NF3: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

    /// select --reaches stops replaying a game once its position is found, or once the
    /// position is out of reach (fewer men, fewer pawns of a side, castling rights lost).
    #[test]
    fn reaches_stops_the_replay_once_the_positions_decide() {
        let found = b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
        assert_eq!(reaches(found, AFTER_NF3, false), (true, 4));
        assert_eq!(reaches(found, AFTER_NF3, true), (true, 7));
        // A capture before the position: fewer men than it has, the game cannot reach it.
        let capture = b"1. e4 d5 2. exd5 e5 3. Nf3 Nf6 4. Bb5+ c6 *\n";
        assert_eq!(reaches(capture, AFTER_NF3, false), (false, 4));
        assert_eq!(reaches(capture, AFTER_NF3, true), (false, 9));
        // A king move loses the castling rights the position still has.
        let king = b"1. e4 e5 2. Ke2 Nc6 3. Nf3 Nf6 *\n";
        assert_eq!(reaches(king, AFTER_NF3, false), (false, 4));
        // A transposition is still found: the same men, pawns and rights on the way.
        let transposed = b"1. Nf3 Nc6 2. e4 e5 3. Ng1 Nb8 4. Nf3 a6 *\n";
        assert_eq!(reaches(transposed, AFTER_NF3, false), (true, 8));
    }

    /// A tag-only --where decides before the replay: a game it rejects is never replayed.
    #[test]
    fn a_tag_only_filter_does_not_replay_the_games_it_rejects() {
        assert_eq!(judge("WhiteElo >= 2500", false), (false, 0, false));
        assert_eq!(judge("WhiteElo >= 1500", false), (true, 4, true));
        // A filter that reads a stats column must replay.
        assert_eq!(
            judge("WhiteElo >= 2500 || plies > 2", false),
            (true, 4, true)
        );
    }

    #[test]
    fn invert_selects_what_the_filters_reject() {
        assert!(judge("WhiteElo >= 2500", true).0);
        assert_eq!(judge("plies > 2", true), (false, 4, false));
    }

    /// Without `judgement` (select reading no column) the replay still plays every
    /// move and keeps the status, the final position and the tags a key needs, but judges
    /// nothing once the moves are over.
    #[test]
    fn judgement_off_plays_the_moves_and_judges_nothing() {
        // Fool's mate recorded as a draw, without the roster's tags: two game findings.
        let pgn = b"[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
        let (raw, _) = game_and_filter(pgn, Filters::default(), false);
        let judged = crate::rules::replay(&raw, &ReplayOptions::default(), &mut ());
        let codes: Vec<Code> = judged.findings.iter().map(|f| f.code).collect();
        assert!(codes.contains(&Code::ResultMismatch), "{codes:?}");
        assert!(codes.contains(&Code::TagMissingRoster), "{codes:?}");
        assert_eq!(judged.termination, Termination::Checkmate);

        let options = ReplayOptions {
            judgement: false,
            ..ReplayOptions::default()
        };
        let played = crate::rules::replay(&raw, &options, &mut ());
        assert!(played.findings.is_empty(), "{:?}", played.findings);
        assert_eq!(played.termination, Termination::None);
        assert_eq!((played.status, played.plies), (Status::Ok, 4));
        assert_eq!(played.final_pos, judged.final_pos);
        assert_eq!(played.tags.value("Result"), "1/2-1/2");
    }
}
