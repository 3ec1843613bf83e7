//! `--where EXPR`: the lexer, a small recursive-descent parser and the evaluator.
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

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Or,
    And,
    Not,
    Op(CompareOp),
    Match,
    NotMatch,
    Open,
    Close,
    Ident(String),
    Number(f64, String),
    Text(String),
    End,
}

/// Splits the expression into tokens, each with its byte offset.
fn lex(text: &str) -> Result<Vec<(Tok, usize)>, ExprError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    let fault = |message: &str, offset| ExprError {
        message: message.to_string(),
        offset,
    };
    while let Some(&byte) = bytes.get(at) {
        let next = bytes.get(at + 1).copied();
        let start = at;
        let (tok, len) = match (byte, next) {
            (b' ' | b'\t' | b'\n' | b'\r', _) => {
                at += 1;
                continue;
            }
            (b'|', Some(b'|')) => (Tok::Or, 2),
            (b'&', Some(b'&')) => (Tok::And, 2),
            (b'=', Some(b'=')) => (Tok::Op(CompareOp::Eq), 2),
            (b'!', Some(b'=')) => (Tok::Op(CompareOp::Ne), 2),
            (b'!', Some(b'~')) => (Tok::NotMatch, 2),
            (b'<', Some(b'=')) => (Tok::Op(CompareOp::Le), 2),
            (b'>', Some(b'=')) => (Tok::Op(CompareOp::Ge), 2),
            (b'!', _) => (Tok::Not, 1),
            (b'<', _) => (Tok::Op(CompareOp::Lt), 1),
            (b'>', _) => (Tok::Op(CompareOp::Gt), 1),
            (b'~', _) => (Tok::Match, 1),
            (b'(', _) => (Tok::Open, 1),
            (b')', _) => (Tok::Close, 1),
            (b'"', _) => {
                let mut value = String::new();
                let mut end = None;
                let mut chars = text.get(at + 1..).unwrap_or_default().char_indices();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '"' => {
                            end = Some(at + 1 + i + 1);
                            break;
                        }
                        '\\' => match chars.next() {
                            Some((_, escaped @ ('"' | '\\'))) => value.push(escaped),
                            Some((j, _)) => {
                                return Err(fault(
                                    "only \\\" and \\\\ are escapes in a string",
                                    at + 1 + j - 1,
                                ));
                            }
                            None => break,
                        },
                        c => value.push(c),
                    }
                }
                let Some(end) = end else {
                    return Err(fault("this string has no closing quote", at));
                };
                (Tok::Text(value), end - at)
            }
            (b'-' | b'0'..=b'9', _) => {
                let len = number_len(bytes.get(at..).unwrap_or_default());
                let word = text.get(at..at + len).unwrap_or_default();
                let value = (len > 0).then(|| word.parse::<f64>().ok()).flatten();
                let Some(value) = value else {
                    return Err(fault("not a number (digits, optionally . and digits)", at));
                };
                (Tok::Number(value, word.to_string()), len)
            }
            (b'a'..=b'z' | b'A'..=b'Z' | b'_', _) => {
                let len = bytes
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let word = text.get(at..at + len).unwrap_or_default();
                (Tok::Ident(word.to_string()), len)
            }
            _ => {
                return Err(fault(
                    "unexpected character (operators: || && ! == != < <= > >= ~ !~)",
                    at,
                ));
            }
        };
        // A number or a name runs into the next one (`2500abc`) only by mistake.
        let glued = matches!(tok, Tok::Number(..))
            && bytes
                .get(at + len)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.');
        if glued {
            return Err(fault(
                "not a number (digits, optionally . and digits)",
                start,
            ));
        }
        tokens.push((tok, start));
        at += len;
    }
    tokens.push((Tok::End, text.len()));
    Ok(tokens)
}

/// The length of a decimal number at the start of `bytes`: optional `-`, digits,
/// optionally `.` and digits; 0 when there is none.
fn number_len(bytes: &[u8]) -> usize {
    let sign = usize::from(bytes.first() == Some(&b'-'));
    let digits = |from: usize| {
        bytes
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(sign);
    if whole == 0 {
        return 0;
    }
    let mut len = sign + whole;
    if bytes.get(len) == Some(&b'.') {
        let fraction = digits(len + 1);
        if fraction == 0 {
            return 0;
        }
        len += 1 + fraction;
    }
    len
}

/// The value of a string that reads as a decimal number (SPEC: an optional `-`, digits,
/// optionally `.` and digits; nothing else).
pub fn as_number(text: &str) -> Option<f64> {
    if text.is_empty() || number_len(text.as_bytes()) != text.len() {
        return None;
    }
    text.parse().ok()
}

/// How deep `(` and `!` may nest in a `--where` expression.
pub const MAX_NESTING: usize = 256;

struct Parser<'t> {
    tokens: Vec<(Tok, usize)>,
    at: usize,
    /// The `(` and `!` open around the current token.
    depth: usize,
    fields: Vec<Field>,
    text: &'t str,
}

impl Parser<'_> {
    fn peek(&self) -> (&Tok, usize) {
        self.tokens
            .get(self.at)
            .map_or((&Tok::End, self.text.len()), |(tok, offset)| (tok, *offset))
    }

    fn advance(&mut self) -> (Tok, usize) {
        let (tok, offset) = self.peek();
        let taken = (tok.clone(), offset);
        self.at += 1;
        taken
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        let first = self.and()?;
        if *self.peek().0 != Tok::Or {
            return Ok(first);
        }
        let mut terms = vec![first];
        while *self.peek().0 == Tok::Or {
            self.advance();
            terms.push(self.and()?);
        }
        Ok(Node::Or(terms))
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        let first = self.not()?;
        if *self.peek().0 != Tok::And {
            return Ok(first);
        }
        let mut terms = vec![first];
        while *self.peek().0 == Tok::And {
            self.advance();
            terms.push(self.not()?);
        }
        Ok(Node::And(terms))
    }

    fn not(&mut self) -> Result<Node, ExprError> {
        if *self.peek().0 == Tok::Not {
            let (_, offset) = self.advance();
            self.nest(offset)?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Node::Not(Box::new(inner)));
        }
        self.compare()
    }

    /// One more level of `(` or `!`: the parser and the judgement recurse once per level,
    /// so a generated expression must not nest deeper than the stack allows.
    fn nest(&mut self, offset: usize) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ExprError {
                message: format!(
                    "the expression nests deeper than {MAX_NESTING} levels (each ( and each ! is one)"
                ),
                offset,
            });
        }
        Ok(())
    }

    fn compare(&mut self) -> Result<Node, ExprError> {
        let left = self.atom()?;
        let node = match self.peek().0.clone() {
            Tok::Op(op) => {
                self.advance();
                Node::Compare(Box::new(left), op, Box::new(self.atom()?))
            }
            tok @ (Tok::Match | Tok::NotMatch) => {
                self.advance();
                let (pattern, at) = self.advance();
                let Tok::Text(pattern) = pattern else {
                    return Err(ExprError {
                        message:
                            "the right side of ~ and !~ must be a \"string\" (a regular expression)"
                                .into(),
                        offset: at,
                    });
                };
                let regex = Regex::new(&pattern).map_err(|err| ExprError {
                    message: format!("bad regular expression: {}", one_line(&err.to_string())),
                    offset: at,
                })?;
                Node::Matches(Box::new(left), Box::new(regex), tok == Tok::NotMatch)
            }
            _ => return Ok(left),
        };
        let (next, offset) = self.peek();
        if matches!(next, Tok::Op(_) | Tok::Match | Tok::NotMatch) {
            return Err(ExprError {
                message: "comparisons do not chain: use && (`1 < a && a < 3`)".into(),
                offset,
            });
        }
        Ok(node)
    }

    fn atom(&mut self) -> Result<Node, ExprError> {
        let (tok, offset) = self.advance();
        match tok {
            Tok::Open => {
                self.nest(offset)?;
                let inner = self.or()?;
                self.depth -= 1;
                let (close, at) = self.advance();
                if close != Tok::Close {
                    return Err(ExprError {
                        message: "expected )".into(),
                        offset: at,
                    });
                }
                Ok(inner)
            }
            Tok::Number(value, text) => Ok(Node::Number(value, text)),
            Tok::Text(text) => Ok(Node::Text(text)),
            Tok::Ident(name) if name == "true" => Ok(Node::Bool(true)),
            Tok::Ident(name) if name == "false" => Ok(Node::Bool(false)),
            Tok::Ident(name) => {
                let field = resolve(&name).ok_or_else(|| ExprError {
                    message: format!(
                        "unknown field `{name}` (fields: the stats columns, such as plies or white_elo, and tags by their name, such as WhiteElo)"
                    ),
                    offset,
                })?;
                let slot = match self.fields.iter().position(|f| *f == field) {
                    Some(slot) => slot,
                    None => {
                        self.fields.push(field);
                        self.fields.len() - 1
                    }
                };
                Ok(Node::Field(slot))
            }
            Tok::End => Err(ExprError {
                message: "the expression ends too soon: a field, number, string or ( is missing"
                    .into(),
                offset,
            }),
            _ => Err(ExprError {
                message: "expected a field, number, string, true, false or (".into(),
                offset,
            }),
        }
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

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Expr {
    /// Compiles `text`; the error carries the offset of the fault.
    pub fn compile(text: &str) -> Result<Expr, ExprError> {
        let mut parser = Parser {
            tokens: lex(text)?,
            at: 0,
            depth: 0,
            fields: Vec::new(),
            text,
        };
        let root = parser.or()?;
        let (rest, offset) = parser.peek();
        if *rest != Tok::End {
            let message = if *rest == Tok::Close {
                "this ) closes nothing"
            } else {
                "expected || or && here"
            };
            return Err(ExprError {
                message: message.into(),
                offset,
            });
        }
        Ok(Expr {
            text: text.to_string(),
            root,
            fields: parser.fields,
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
