//! `validate --variations`: every variation is replayed from the position before the move
//! it replaces, and its defects are reported without stopping the main line.

use shakmaty::Chess;
use shakmaty::san::San;

use crate::pgn::RawGame;
use crate::rules::findings::{Code, Finding};
use crate::rules::replay::movetext::{WalkStep, walk};
use crate::rules::replay::{ReplayOptions, fen_of, move_label};

/// The findings inside the variations of one game (the main line is the replay's job).
pub fn check(raw: &RawGame, start: &Chess, options: &ReplayOptions) -> Vec<Finding> {
    let mut findings = Vec::new();
    // The label of each open variation's first move, innermost last.
    let mut firsts: Vec<Option<String>> = Vec::new();
    let finding = |code: Code,
                   message: String,
                   before: &Chess,
                   ply: u32,
                   token: usize,
                   first: &Option<String>| {
        let token = raw.tokens.get(token);
        let text = token
            .map(|t| options.decoder.decode(raw.token_text(t)).into_owned())
            .unwrap_or_default();
        let label = move_label(before, &text);
        Finding {
            code,
            ply,
            move_text: match first {
                Some(first) => format!("({first} ...) {label}"),
                None => format!("({label} ...)"),
            },
            san: text,
            message: format!("in a variation: {message}"),
            fen: fen_of(before),
            move_line: token.map_or(raw.line, |t| raw.token_line(t)),
        }
    };
    for step in walk(raw, start, options) {
        match step {
            WalkStep::VariationStart => firsts.push(None),
            WalkStep::VariationEnd => {
                firsts.pop();
            }
            WalkStep::Move {
                before,
                m,
                ply,
                token,
                why,
            } => {
                let Some(first) = firsts.last_mut() else {
                    continue;
                };
                if let Some(why) = why {
                    let standard = San::from_move(&before, m).to_string();
                    findings.push(finding(
                        Code::SanNotation,
                        format!("read as {standard} ({why})"),
                        &before,
                        ply,
                        token,
                        first,
                    ));
                }
                if first.is_none() {
                    let text = raw
                        .tokens
                        .get(token)
                        .map(|t| options.decoder.decode(raw.token_text(t)).into_owned())
                        .unwrap_or_default();
                    *first = Some(move_label(&before, &text));
                }
            }
            WalkStep::Illegal {
                code,
                message,
                main_line: false,
                before,
                ply,
                token,
                ..
            } => {
                let first = firsts.last().cloned().flatten();
                findings.push(finding(code, message, &before, ply, token, &first));
            }
            _ => {}
        }
    }
    findings
}
