//! `--where EXPR` read: the lexer and a small recursive-descent parser (the grammar is
//! the module's, `expr`), fields resolved to slots as they are met.

use regex::Regex;

use super::{CompareOp, ExprError, Field, Node, resolve};

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
pub(super) fn number_len(bytes: &[u8]) -> usize {
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

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses `text` into its tree and the fields it reads (each once, by slot).
pub(super) fn parse(text: &str) -> Result<(Node, Vec<Field>), ExprError> {
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
    Ok((root, parser.fields))
}
