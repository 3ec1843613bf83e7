//! The end of a game, entered once after the last move (`Replay::finish`): the final
//! position, the termination (checkmate, stalemate, the automatic draws, a dead position),
//! who can still mate (FIDE 5.2.2, 6.9), the moves played after an automatic end, and the
//! recorded result checked against all of them. Beside it, the reading of the result
//! the record claims (the `Result` tag and the termination marker), which the move loop
//! calls as it meets the marker.

use shakmaty::{Color, Position};

use super::annotations::{Clock, CommentAnnotations};
use super::history::Played;
use super::{MateFigures, Replay, Status, fen_of, move_label};
use crate::pgn::{Token, TokenKind};
use crate::rules::clocks::{self, ClockFinding, MoveClock};
use crate::rules::findings::{Code, Finding};
use crate::rules::mate_check::{self, Wanted, WhoCannotMate};
use crate::rules::result::{self, GameResult, Termination};
use crate::rules::tags::checks as tag_checks;
use crate::rules::termination_tag;
use crate::rules::termination_tag::Claim;
use crate::rules::time_control::{Declared, TimeControl};

/// What the record claims about the end: the termination marker and the `Result` tag.
impl Replay<'_> {
    /// The first termination marker outside variations from token `from` on, at `depth`.
    pub(super) fn scan_marker(&self, from: usize, mut depth: u32) -> Option<GameResult> {
        for token in self.raw.tokens.iter().skip(from) {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Result if depth == 0 => return self.marker_of(token),
                _ => {}
            }
        }
        None
    }

    pub(super) fn marker_of(&self, token: &Token) -> Option<GameResult> {
        GameResult::parse_marker(self.raw.token_text(token))
    }

    /// `result.notation`: the marker at `index` (the game's) written loosely, or glued
    /// to the move before it.
    pub(super) fn loose_marker(&mut self, index: usize) {
        let raw = self.raw;
        let Some(token) = raw.tokens.get(index) else {
            return;
        };
        let text = raw.token_text(token);
        let glued_to = index
            .checked_sub(1)
            .and_then(|i| raw.tokens.get(i))
            .filter(|before| before.kind == TokenKind::Word && before.span.end == token.span.start);
        let canonical = matches!(text, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
        if canonical && glued_to.is_none() {
            return;
        }
        let Some(result) = GameResult::parse_marker(text) else {
            return;
        };
        let written = self.written(text);
        let mut message = format!(
            "`{written}` read as the termination marker {}",
            result.as_str()
        );
        if let Some(before) = glued_to {
            message.push_str(&format!(
                " (glued to the move `{}`)",
                self.written(raw.token_text(before))
            ));
        }
        self.report.findings.push(Finding {
            code: Code::ResultNotation,
            ply: self.report.plies,
            move_text: String::new(),
            san: written,
            message,
            fen: fen_of(&self.pos),
            move_line: raw.token_line(token),
        });
    }

    /// R of SPEC.md, from the Result tag and the termination marker.
    pub(super) fn record_result(&mut self, tag_result: Option<&str>, marker: Option<GameResult>) {
        self.marker = marker;
        self.report.result = result::recorded_result(tag_result, marker);
    }
}

/// The end of the game, judged.
impl Replay<'_> {
    /// The final position, and unless turned off (`judgement`) the game's judgement:
    /// termination, result cross-check, perpetual check, the tag checks.
    pub(super) fn finish(&mut self, tag_result: Option<&str>) {
        self.report.final_pos = Some(self.pos.clone());
        if self.options.figures {
            self.report.counts.set_captures(&self.start, &self.pos);
        }
        if !self.options.judgement {
            return;
        }
        // The splitter's findings (the first ones) are about the whole game: they carry the
        // last ply replayed and the final position, as every game-level finding does.
        if !self.raw.problems.is_empty() {
            let fen = fen_of(&self.pos);
            let plies = self.report.plies;
            for finding in self
                .report
                .findings
                .iter_mut()
                .take(self.raw.problems.len())
            {
                finding.ply = plies;
                finding.fen.clone_from(&fen);
            }
        }
        let mut termination = Termination::of(&self.pos, &self.report.draws);
        self.judge_mates(termination);
        if self.report.mate.verdict.is_dead() && termination > Termination::InsufficientMaterial {
            termination = Termination::DeadPosition;
        }
        self.report.termination = termination;
        self.report.perpetual_check = self.report.draws.perpetual_check();
        for (code, message) in tag_checks::check(&self.report.tags, self.options.tag_infos) {
            self.game_finding(code, message);
        }
        let control = self.time_control();
        self.judge_clocks(control.as_ref());
        // The earliest automatic end: the first dead ply may come before the others.
        if let Some(dead) = self.report.mate.dead_position_ply
            && self.automatic_end.is_none_or(|(ply, _)| dead <= ply)
        {
            let kind = if self.report.mate.verdict.is_dead() && dead == self.report.plies {
                termination
            } else {
                self.dead_kind(dead)
            };
            self.automatic_end = Some((dead, kind));
            self.plies_after_end = self.report.plies - dead;
        }
        if let Some((end_ply, termination)) = self.automatic_end
            && self.plies_after_end > 0
        {
            let message = format!(
                "the game had already ended in a draw at ply {end_ply} ({}); {} played after it do{} not count",
                termination.as_str().replace('-', " "),
                if self.plies_after_end == 1 {
                    "the 1 move".to_string()
                } else {
                    format!("the {} moves", self.plies_after_end)
                },
                if self.plies_after_end == 1 { "es" } else { "" }
            );
            self.game_finding(Code::ResultAfterAutomaticDraw, message);
        }
        if self.report.status != Status::Ok {
            // A replay that stopped early does not show the game's real final position.
            return;
        }
        if let Some(message) = result::mismatch(
            tag_result,
            self.marker,
            &self.report.result,
            &self.pos,
            termination,
        ) {
            self.report.result_consistent = false;
            self.game_finding(Code::ResultMismatch, message);
        } else if let Some(message) = result::unwinnable_win(
            &self.report.result,
            &self.pos,
            self.report.mate.verdict,
            self.report.tags.get("Termination"),
        ) {
            self.game_finding(Code::ResultUnwinnableWin, message);
        }
        if let Some(tag) = self.report.tags.get("Termination") {
            let end = termination_tag::End {
                tag,
                recorded: &self.report.result,
                pos: &self.pos,
                termination,
                draws: &self.report.draws,
                mode: self.report.castling_mode,
            };
            if let Some((code, message)) = termination_tag::judge(&end) {
                self.game_finding(code, message);
            }
        }
    }

    /// Who can still mate in the final position and, when it is dead or a stalemate, the
    /// first dead ply: scanning back, the earliest ply from which every position is dead.
    /// A checkmate or stalemate is not called dead (the game ended there).
    fn judge_mates(&mut self, termination: Termination) {
        let (level, mode) = (self.options.mate_check, self.report.castling_mode);
        // Without the figures (no stats row shows who cannot mate), only what the findings
        // and the termination read is worked out: dead or not, and the recorded winner.
        let (wanted, earlier_wanted) = if self.options.figures {
            (Wanted::Both, Wanted::Both)
        } else {
            let winner = GameResult::parse(&self.report.result).and_then(GameResult::winner);
            (Wanted::DeadOr(winner), Wanted::DeadOr(None))
        };
        let verdict = match termination {
            Termination::Checkmate | Termination::Stalemate => WhoCannotMate::default(),
            _ => mate_check::analyse_wanted(&self.pos, mode, level, wanted),
        };
        self.report.mate = MateFigures {
            level: Some(level),
            verdict,
            dead_position_ply: None,
            budget: verdict.budget,
        };
        let final_dead = verdict.is_dead();
        if !final_dead && termination != Termination::Stalemate {
            return;
        }
        let mut first = final_dead.then_some(self.report.plies);
        // The positions before the final one, rebuilt from the start (rare: a dead end).
        let mut pos = self.start.clone();
        let played = self.played_moves();
        let mut positions = Vec::with_capacity(played.len());
        for played in played {
            positions.push(pos.clone());
            pos.play_unchecked(played.mv);
        }
        for (ply, pos) in positions.iter().enumerate().rev() {
            let earlier = mate_check::analyse_wanted(pos, mode, level, earlier_wanted);
            self.report.mate.budget |= earlier.budget;
            if !earlier.is_dead() {
                break;
            }
            first = u32::try_from(ply).ok();
        }
        self.report.mate.dead_position_ply = first;
    }

    /// What ended the game at the dead ply `ply`: insufficient material, or a dead position
    /// beyond it.
    fn dead_kind(&mut self, ply: u32) -> Termination {
        let mut pos = self.start.clone();
        for played in self.played_moves().iter().take(ply as usize) {
            pos.play_unchecked(played.mv);
        }
        if pos.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else {
            Termination::DeadPosition
        }
    }

    /// The game's time control, and `tag.bad-time-control` (with the other tag findings)
    /// for a value that is none; the standard form goes in the figures.
    fn time_control(&mut self) -> Option<TimeControl> {
        // Read only where something reads it: the figures, the tag findings, the clocks.
        if !self.options.figures && !self.options.tag_infos && self.move_clocks.is_empty() {
            return None;
        }
        let control = match TimeControl::read(self.report.tags.get("TimeControl")) {
            Declared::Known(control) => Some(control),
            Declared::Unknown => None,
            Declared::Bad => {
                if self.options.tag_infos {
                    let value = self.report.tags.value("TimeControl").to_string();
                    self.game_finding(
                        Code::TagBadTimeControl,
                        format!(
                            "[TimeControl \"{value}\"] is not a time control in the PGN standard's form (`300+3`, `40/5400+30:1800+30`, `*60`; `?` or `-` when unknown): the clocks are not checked"
                        ),
                    );
                }
                None
            }
        };
        if self.options.figures {
            self.report.time_control = control.as_ref().map(TimeControl::standard);
        }
        control
    }

    /// Keeps a move's clock annotations for the clock checks (the first clock and the
    /// first move time of a move count).
    pub(super) fn note_move_clock(
        &mut self,
        token: &Token,
        mover: Color,
        found: &CommentAnnotations,
    ) {
        let ply = self.report.plies;
        if let Some(last) = self.move_clocks.last_mut()
            && last.ply == ply
        {
            last.clock = last.clock.or(found.clock);
            last.time = last.time.or(found.move_time);
            return;
        }
        if self.move_clocks.capacity() == 0 {
            // A game with clocks has one a move: one allocation for most games.
            self.move_clocks.reserve(128);
        }
        self.move_clocks.push(MoveClock {
            ply,
            mover,
            clock: found.clock,
            time: found.move_time,
            line: self.raw.token_line(token),
        });
    }

    /// The clocks against the time control: the move-time figures, clocks derived from
    /// move times where none is written, and `clock.gain` / `clock.over-time`.
    fn judge_clocks(&mut self, control: Option<&TimeControl>) {
        if self.move_clocks.is_empty() {
            return;
        }
        let flag_fell = matches!(
            self.report.tags.get("Termination").and_then(Claim::read),
            Some(Claim::LossOnTime | Claim::TimeoutVsInsufficient)
        );
        let lost_on_time = match GameResult::parse(&self.report.result) {
            _ if !flag_fell => None,
            Some(GameResult::Draw) => Some(self.pos.turn()),
            Some(result) => result.winner().map(|winner| !winner),
            None => None,
        };
        let moves = std::mem::take(&mut self.move_clocks);
        let game = clocks::TimedGame {
            moves: &moves,
            plies: self.report.plies,
            first_mover: self.start.turn(),
            lost_on_time,
        };
        let (figures, derived, findings) = clocks::judge(&game, control);
        if self.options.figures {
            self.report.clocks = figures;
            let notes = &mut self.report.annotations;
            if notes.clocks == 0 {
                for (side, clocks) in derived.iter().enumerate() {
                    notes.clocks += u32::try_from(clocks.len()).unwrap_or(u32::MAX);
                    if let (Some(end), Some(min)) =
                        (notes.clock_end.get_mut(side), notes.clock_min.get_mut(side))
                    {
                        *end = clocks.last().map(|&c| Clock::from_millis(c));
                        *min = clocks.iter().min().map(|&c| Clock::from_millis(c));
                    }
                }
            }
        }
        for found in findings {
            self.clock_finding(found);
        }
    }

    /// A clock finding at the move it is about (rare: the moves are replayed to name it).
    fn clock_finding(&mut self, found: ClockFinding) {
        let played: Vec<Played> = self.played_moves().to_vec();
        let index = usize::try_from(found.ply.saturating_sub(1)).unwrap_or(usize::MAX);
        let mut before = self.start.clone();
        for played in played.iter().take(index) {
            before.play_unchecked(played.mv);
        }
        let san = played
            .get(index)
            .map(|played| self.written(self.raw.text(played.token)))
            .unwrap_or_default();
        self.report.findings.push(Finding {
            code: found.code,
            ply: found.ply,
            move_text: move_label(&before, &san),
            san,
            message: found.message,
            fen: fen_of(&before),
            move_line: found.line,
        });
    }
}
