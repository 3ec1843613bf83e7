//! `--where EXPR`: the compiled expression and its evaluation; the lexer and the small
//! recursive-descent parser are `parse`.
//!
//! Grammar (loosest first), as SPEC.md "Game filters" gives it:
//!
//! ```text
//! or   := and ("||" and)*
//! and  := not ("&&" not)*
//! not  := "!" not | cmp
//! cmp  := atom (("==" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "!~") atom)?
//! atom := "(" or ")" | FIELD | NUMBER | STRING | "true" | "false"
//! ```
//!
//! Field names are resolved once, when the expression is compiled, to slots: the
//! evaluator asks its caller for a slot's text and allocates nothing.

use std::cmp::Ordering;

use regex::Regex;

use crate::record::Record as _;
use crate::stats::StatsRow;

mod parse;

pub use parse::MAX_NESTING;

/// Where a field's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A `stats` column, by its index in `StatsRow::COLUMNS`.
    Column(usize),
    /// A PGN tag, by its name (an absent tag reads as "").
    Tag(String),
}

/// A compiled `--where` expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// The text as given, for messages.
    pub text: String,
    root: Node,
    /// The fields the expression reads, each once; `Node::Field` holds an index here.
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone)]
enum Node {
    // A chain `a || b || ...` is one node with its terms side by side, so a long generated
    // chain costs no stack depth when it is judged or dropped.
    Or(Vec<Node>),
    And(Vec<Node>),
    Not(Box<Node>),
    Compare(Box<Node>, CompareOp, Box<Node>),
    Matches(Box<Node>, Box<Regex>, bool),
    Field(usize),
    Number(f64, String),
    Text(String),
    Bool(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A syntax error or an unknown field: the message and the byte offset of the fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub message: String,
    pub offset: usize,
}

impl ExprError {
    /// The message, then the expression with a caret under the fault.
    pub fn render(&self, text: &str) -> String {
        let column = text
            .get(..self.offset.min(text.len()))
            .map_or(0, |before| before.chars().count());
        format!(
            "{}\n  {}\n  {}^",
            self.message,
            crate::terminal::visible(text),
            " ".repeat(column)
        )
    }
}

/// A name's field: a `stats` column when it starts with a lower-case letter (it must be
/// one), else a tag.
pub fn resolve(name: &str) -> Option<Field> {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Some(Field::Tag(name.to_string()));
    }
    StatsRow::COLUMNS
        .iter()
        .position(|column| column.name == name)
        .map(Field::Column)
}

/// The value of a string that reads as a decimal number (SPEC: an optional `-`, digits,
/// optionally `.` and digits; nothing else).
pub fn as_number(text: &str) -> Option<f64> {
    if text.is_empty() || parse::number_len(text.as_bytes()) != text.len() {
        return None;
    }
    text.parse().ok()
}

impl Expr {
    /// Compiles `text`; the error carries the offset of the fault.
    pub fn compile(text: &str) -> Result<Expr, ExprError> {
        let (root, fields) = parse::parse(text)?;
        Ok(Expr {
            text: text.to_string(),
            root,
            fields,
        })
    }

    /// Whether the expression reads tags only (then it is judged before the replay).
    pub fn reads_tags_only(&self) -> bool {
        self.fields.iter().all(|f| matches!(f, Field::Tag(_)))
    }

    /// The expression's truth for a game whose field `slot` reads `value(slot)`.
    pub fn eval<'v>(&self, value: &impl Fn(usize) -> &'v str) -> bool {
        truth(&self.root, value)
    }
}

/// An operand's value: a number literal, or a text (which may read as a number).
enum Operand<'v> {
    Literal(f64),
    Text(&'v str),
}

fn operand<'a, 'v: 'a>(node: &'a Node, value: &impl Fn(usize) -> &'v str) -> Operand<'a> {
    match node {
        Node::Number(number, _) => Operand::Literal(*number),
        Node::Text(text) => Operand::Text(text),
        Node::Field(slot) => Operand::Text(value(*slot)),
        other => Operand::Text(if truth(other, value) { "true" } else { "false" }),
    }
}

fn truth<'v>(node: &Node, value: &impl Fn(usize) -> &'v str) -> bool {
    match node {
        Node::Or(terms) => terms.iter().any(|term| truth(term, value)),
        Node::And(terms) => terms.iter().all(|term| truth(term, value)),
        Node::Not(inner) => !truth(inner, value),
        Node::Bool(b) => *b,
        Node::Field(slot) => value(*slot) == "true",
        Node::Text(text) => text == "true",
        Node::Number(..) => false,
        Node::Matches(left, regex, negated) => {
            let text = match (left.as_ref(), operand(left, value)) {
                (Node::Number(_, literal), _) => literal.as_str(),
                (_, Operand::Text(text)) => text,
                (_, Operand::Literal(_)) => "",
            };
            regex.is_match(text) != *negated
        }
        Node::Compare(left, op, right) => compare(operand(left, value), *op, operand(right, value)),
    }
}

/// SPEC's comparison rules: numbers when both sides read as numbers; else strings for
/// `==`/`!=`, and byte-wise order for the others unless one side is a number literal
/// (then false).
fn compare(left: Operand, op: CompareOp, right: Operand) -> bool {
    let number = |o: &Operand| match o {
        Operand::Literal(n) => Some(*n),
        Operand::Text(text) => as_number(text),
    };
    let ordering = match (number(&left), number(&right), &left, &right) {
        (Some(a), Some(b), _, _) => a.partial_cmp(&b),
        (_, _, Operand::Text(a), Operand::Text(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        // A number literal against a text that is no number: they differ, and no
        // ordering holds (`WhiteElo >= 2500` is false for "?").
        _ => return op == CompareOp::Ne,
    };
    let Some(ordering) = ordering else {
        return op == CompareOp::Ne;
    };
    match op {
        CompareOp::Eq => ordering == Ordering::Equal,
        CompareOp::Ne => ordering != Ordering::Equal,
        CompareOp::Lt => ordering == Ordering::Less,
        CompareOp::Le => ordering != Ordering::Greater,
        CompareOp::Gt => ordering == Ordering::Greater,
        CompareOp::Ge => ordering != Ordering::Less,
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use super::{Expr, Field};

    /// The truth of `text` where field `name` reads `value` (others read "").
    fn holds(text: &str, fields: &[(&str, &str)]) -> bool {
        let expr = Expr::compile(text).unwrap();
        let names: Vec<String> = expr
            .fields
            .iter()
            .map(|f| match f {
                Field::Tag(name) => name.clone(),
                Field::Column(i) => <crate::stats::StatsRow as crate::record::Record>::COLUMNS[*i]
                    .name
                    .to_string(),
            })
            .collect();
        expr.eval(&|slot| {
            fields
                .iter()
                .find(|(name, _)| *name == names[slot])
                .map_or("", |(_, value)| value)
        })
    }

    fn fault(text: &str) -> (String, usize) {
        let err = Expr::compile(text).unwrap_err();
        (err.message, err.offset)
    }

    #[test]
    fn and_binds_tighter_than_or() {
        assert!(holds("true || false && false", &[]));
        assert!(!holds("(true || false) && false", &[]));
    }

    #[test]
    fn not_binds_looser_than_comparisons() {
        assert!(holds("!plies > 20", &[("plies", "10")]));
        assert!(!holds("!(plies > 20)", &[("plies", "30")]));
        assert!(holds("!!true", &[]));
    }

    #[test]
    fn numbers_compare_as_numbers_when_both_sides_read_as_numbers() {
        assert!(holds("WhiteElo >= 2500", &[("WhiteElo", "2650")]));
        assert!(holds("WhiteElo > 999", &[("WhiteElo", "1000")]));
        assert!(holds("WhiteElo == \"2500.0\"", &[("WhiteElo", "2500")]));
        assert!(holds("Eval < -0.5", &[("Eval", "-1.25")]));
    }

    #[test]
    fn a_number_literal_against_text_orders_false() {
        for op in ["<", "<=", ">", ">=", "=="] {
            assert!(!holds(&format!("WhiteElo {op} 2500"), &[("WhiteElo", "?")]));
        }
        assert!(holds("WhiteElo != 2500", &[("WhiteElo", "?")]));
        assert!(!holds("WhiteElo >= 2500", &[]));
    }

    #[test]
    fn strings_compare_byte_wise() {
        assert!(holds("Date >= \"2024.01.01\"", &[("Date", "2024.03.??")]));
        assert!(!holds("Date >= \"2024.01.01\"", &[("Date", "2023.12.31")]));
        assert!(holds("White < \"b\"", &[("White", "Z")]));
        assert!(holds(
            "termination == \"stalemate\"",
            &[("termination", "stalemate")]
        ));
        assert!(holds("threefold_ply != \"\"", &[("threefold_ply", "40")]));
        assert!(!holds("threefold_ply != \"\"", &[]));
    }

    #[test]
    fn only_strict_decimals_are_numbers() {
        for text in ["+5", "1e3", "0x10", "5.", ".5", " 5", "1,5"] {
            assert!(super::as_number(text).is_none(), "{text}");
        }
        assert_eq!(super::as_number("-0.5"), Some(-0.5));
    }

    #[test]
    fn regular_expressions_match_inside() {
        assert!(holds(
            "Event ~ \"(?i)olympiad\"",
            &[("Event", "40th Olympiad")]
        ));
        assert!(!holds(
            "Event ~ \"olympiad\"",
            &[("Event", "40th Olympiad")]
        ));
        assert!(holds("Event !~ \"^Blitz\"", &[("Event", "Rapid")]));
    }

    #[test]
    fn strings_take_quote_and_backslash_escapes() {
        assert!(holds(
            r#"White == "a \"b\" \\c""#,
            &[("White", r#"a "b" \c"#)]
        ));
        assert!(fault(r#"White == "a\n""#).0.contains("escapes"));
    }

    #[test]
    fn bare_fields_are_true_when_they_read_true() {
        assert!(holds(
            "perpetual_check && plies > 100",
            &[("perpetual_check", "true"), ("plies", "101")]
        ));
        assert!(!holds("perpetual_check", &[("perpetual_check", "false")]));
    }

    #[test]
    fn carets_point_at_the_fault() {
        assert_eq!(fault("plies > 2 &&").1, 12);
        assert_eq!(fault("plies > 2 && bogus == 1").1, 13);
        assert_eq!(fault("1 < plies < 3").1, 10);
        assert_eq!(fault("White == \"x").1, 9);
        assert_eq!(fault("Event ~ \"(\"").1, 8);
        assert_eq!(fault("(plies > 2").1, 10);
        assert_eq!(fault("plies > 2)").1, 9);
        assert_eq!(fault("plies = 2").1, 6);
        let shown = Expr::compile("plies > 2 && bogus")
            .unwrap_err()
            .render("plies > 2 && bogus");
        assert!(
            shown.ends_with("\n  plies > 2 && bogus\n               ^"),
            "{shown}"
        );
    }

    #[test]
    fn nesting_stops_at_the_limit_with_the_caret_on_the_first_level_too_many() {
        let nested = |n: usize| format!("{}plies > 2{}", "(".repeat(n), ")".repeat(n));
        assert!(Expr::compile(&nested(super::MAX_NESTING)).is_ok());
        let (message, offset) = fault(&nested(super::MAX_NESTING + 1));
        assert!(message.contains("nests deeper than 256"), "{message}");
        assert_eq!(offset, super::MAX_NESTING);
        assert!(holds(&format!("{}true", "!".repeat(256)), &[]));
        assert_eq!(fault(&"!".repeat(60_000)).1, 256);
        // `!` and `(` count together.
        assert_eq!(fault(&"!(".repeat(200)).1, 256);
    }

    #[test]
    fn long_chains_cost_no_depth() {
        let chain = vec!["Event == \"x\""; 200_000].join(" || ");
        assert!(!holds(&chain, &[("Event", "y")]));
        assert!(holds(&chain, &[("Event", "x")]));
        let chain = vec!["true"; 200_000].join(" && ");
        assert!(holds(&chain, &[]));
    }

    #[test]
    fn unknown_lower_case_fields_are_refused_and_tags_are_not() {
        assert!(fault("whiteelo > 1").0.contains("unknown field"));
        assert!(Expr::compile("SomeOddTag == \"\"").is_ok());
        assert!(Expr::compile("WhiteElo > 1").unwrap().reads_tags_only());
        assert!(
            !Expr::compile("WhiteElo > 1 && plies > 1")
                .unwrap()
                .reads_tags_only()
        );
    }
}
