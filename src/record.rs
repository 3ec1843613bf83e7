//! The record model: a kind of record names its columns once (name and JSON type) and
//! pushes its cells as the text CSV writes. Stats rows (`stats::columns`), findings,
//! check-fen defects and fen positions are records; `output::records` writes them as CSV,
//! JSON lines or Parquet, and `--where` reads a stats row's cells (`filter::picker`). It
//! names no other part of the crate, so that each of them may use it.

/// How a column's cells are written in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Json {
    /// A JSON string (tag values, names, FENs, messages).
    String,
    /// A JSON number, written as the cell's text (an empty cell is `null`): an integer
    /// (Parquet INT64).
    Number,
    /// A JSON number, an unsigned 64-bit integer (Parquet INT64 annotated UINT_64): a
    /// position key.
    Unsigned,
    /// A JSON number that may have a fraction, such as clock seconds (Parquet DOUBLE).
    Decimal,
    /// `true` or `false` (an empty cell is `null`).
    Bool,
    /// A JSON array of cells of the element type, in its JSON text (`moves --per-game`;
    /// Parquet LIST). An empty cell is `null`; the element type is not a list.
    List(&'static Json),
}

/// A column: its name (the CSV header and the JSON key) and its JSON type.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub json: Json,
}

impl Column {
    pub const fn string(name: &'static str) -> Column {
        Column {
            name,
            json: Json::String,
        }
    }

    pub const fn number(name: &'static str) -> Column {
        Column {
            name,
            json: Json::Number,
        }
    }

    pub const fn unsigned(name: &'static str) -> Column {
        Column {
            name,
            json: Json::Unsigned,
        }
    }

    pub const fn decimal(name: &'static str) -> Column {
        Column {
            name,
            json: Json::Decimal,
        }
    }

    pub const fn bool(name: &'static str) -> Column {
        Column {
            name,
            json: Json::Bool,
        }
    }

    /// A column of one cell of type `json`.
    pub const fn of(name: &'static str, json: Json) -> Column {
        Column { name, json }
    }

    /// A column of lists whose elements are of type `json` (a scalar type).
    pub const fn list_of(name: &'static str, json: Json) -> Column {
        let element = match json {
            Json::String | Json::List(_) => &Json::String,
            Json::Number => &Json::Number,
            Json::Unsigned => &Json::Unsigned,
            Json::Decimal => &Json::Decimal,
            Json::Bool => &Json::Bool,
        };
        Column {
            name,
            json: Json::List(element),
        }
    }
}

/// A kind of record: its columns, and its cells in their order.
pub trait Record {
    /// The columns, in the order of the cells.
    const COLUMNS: &'static [Column];

    /// Whether an empty string cell is `null` in JSON (SPEC.md's stats rows) or `""`
    /// (validate's findings, as they have always been written).
    const EMPTY_STRING_IS_NULL: bool;

    /// Pushes one cell per column, in the order of `COLUMNS`: to `Cells` (the text CSV
    /// writes) or to Parquet's typed values (`Typed`, or `output::parquet::Rows`), by the
    /// same code.
    fn cells<S: CellSink>(&self, cells: &mut S);
}

/// Where a record's cells go: the text CSV writes (`Cells`) or typed values (Parquet's
/// `output::parquet::Rows`, so that a number is never written as text to be parsed back).
pub trait CellSink {
    fn text(&mut self, value: &str);
    fn number(&mut self, value: impl Into<u64>);
    /// A number, or an empty cell.
    fn optional(&mut self, value: Option<impl Into<u64>>);
    /// A signed number (an evaluation), or an empty cell.
    fn signed(&mut self, value: Option<i64>);
    /// A decimal number (`Json::Decimal`), or an empty cell.
    fn decimal(&mut self, value: Option<Decimal>);
    fn bool(&mut self, value: bool);
    /// A list as its JSON array text (`Json::List`; no CSV holds one).
    fn list(&mut self, json_array: &str);
}

/// A decimal number, `units / 10^scale`, written without trailing zeros (`180`, `3723.4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    pub units: u64,
    /// Digits after the point, at most 9.
    pub scale: u8,
}

impl Decimal {
    /// Milliseconds as seconds.
    pub const fn millis(millis: u64) -> Decimal {
        Decimal {
            units: millis,
            scale: 3,
        }
    }

    const fn unit(self) -> u64 {
        10u64.pow(if self.scale > 9 { 9 } else { self.scale as u32 })
    }

    /// Appends the text: the whole part, then the fraction without trailing zeros.
    fn push_text(self, text: &mut String) {
        let unit = self.unit();
        push_decimal(text, self.units / unit);
        let mut fraction = self.units % unit;
        if fraction == 0 {
            return;
        }
        let mut digits = u32::from(self.scale.min(9));
        while fraction.is_multiple_of(10) {
            fraction /= 10;
            digits -= 1;
        }
        text.push('.');
        let shown = itoa::Buffer::new().format(fraction).len();
        for _ in shown..digits as usize {
            text.push('0');
        }
        text.push_str(itoa::Buffer::new().format(fraction));
    }

    /// The nearest double: the quotient of two exact doubles is rounded once, as the
    /// text would be read, while the units fit in 53 bits.
    pub fn to_f64(self) -> f64 {
        if self.units < 1 << 53 {
            return self.units as f64 / self.unit() as f64;
        }
        let mut text = String::new();
        self.push_text(&mut text);
        text.parse().unwrap_or(f64::NAN)
    }
}

/// The cells of one record as CSV writes them: one text with a comma between cells, and
/// where each cell ends. So a row whose cells need no quotes (most stats rows) is its CSV
/// line as it stands, copied at once.
#[derive(Debug, Default)]
pub struct Cells {
    pub(crate) text: String,
    pub(crate) ends: Vec<usize>,
    /// The cells CSV quotes (RFC 4180: they hold `,`, `"`, CR or LF), in order; only a
    /// text cell can.
    pub(crate) quoted: Vec<usize>,
}

impl Cells {
    pub fn text(&mut self, value: &str) {
        if needs_quotes(value.as_bytes()) {
            self.quoted.push(self.ends.len());
        }
        self.separate();
        self.text.push_str(value);
        self.ends.push(self.text.len());
    }

    pub fn number(&mut self, value: impl Into<u64>) {
        self.separate();
        push_decimal(&mut self.text, value.into());
        self.ends.push(self.text.len());
    }

    /// A number, or an empty cell.
    pub fn optional(&mut self, value: Option<impl Into<u64>>) {
        match value {
            Some(value) => self.number(value),
            None => {
                self.separate();
                self.ends.push(self.text.len());
            }
        }
    }

    /// A signed number (an evaluation), or an empty cell.
    pub fn signed(&mut self, value: Option<i64>) {
        self.separate();
        if let Some(value) = value {
            self.text.push_str(itoa::Buffer::new().format(value));
        }
        self.ends.push(self.text.len());
    }

    /// A decimal number, or an empty cell.
    pub fn decimal(&mut self, value: Option<Decimal>) {
        self.separate();
        if let Some(value) = value {
            value.push_text(&mut self.text);
        }
        self.ends.push(self.text.len());
    }

    /// A list as its JSON array text (`Json::List`; no CSV holds one).
    pub fn list(&mut self, json_array: &str) {
        self.separate();
        self.text.push_str(json_array);
        self.ends.push(self.text.len());
    }

    pub fn bool(&mut self, value: bool) {
        self.text(if value { "true" } else { "false" });
    }

    /// The comma before every cell but the first.
    fn separate(&mut self) {
        if !self.ends.is_empty() {
            self.text.push(',');
        }
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.quoted.clear();
    }

    /// No cell yet.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Appends the cells of `other`, as they are.
    pub fn extend_from(&mut self, other: &Cells) {
        if other.is_empty() {
            return;
        }
        self.separate();
        let (offset, before) = (self.text.len(), self.ends.len());
        self.text.push_str(&other.text);
        self.ends.extend(other.ends.iter().map(|end| end + offset));
        self.quoted
            .extend(other.quoted.iter().map(|cell| cell + before));
    }

    /// The text of cell `index`, as CSV writes it ("" for an absent value).
    pub fn get(&self, index: usize) -> Option<&str> {
        let (start, end) = self.span(index)?;
        self.text.get(start..end)
    }

    /// Where cell `index` lies in the joined text (after the comma that ends the cell
    /// before it).
    pub(crate) fn span(&self, index: usize) -> Option<(usize, usize)> {
        let end = *self.ends.get(index)?;
        let start = match index.checked_sub(1) {
            Some(before) => *self.ends.get(before)? + 1,
            None => 0,
        };
        Some((start, end))
    }

    /// The cells' texts with the commas between them: the CSV line when no cell needs
    /// quotes.
    pub(crate) fn joined(&self) -> &str {
        &self.text
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|end| end + 1));
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| self.text.get(start..end).unwrap_or_default())
    }
}

impl CellSink for Cells {
    fn text(&mut self, value: &str) {
        Cells::text(self, value);
    }
    fn number(&mut self, value: impl Into<u64>) {
        Cells::number(self, value);
    }
    fn optional(&mut self, value: Option<impl Into<u64>>) {
        Cells::optional(self, value);
    }
    fn signed(&mut self, value: Option<i64>) {
        Cells::signed(self, value);
    }
    fn decimal(&mut self, value: Option<Decimal>) {
        Cells::decimal(self, value);
    }
    fn bool(&mut self, value: bool) {
        Cells::bool(self, value);
    }
    fn list(&mut self, json_array: &str) {
        Cells::list(self, json_array);
    }
}

/// A reference to a record is that record (so one record and many are written alike).
impl<R: Record> Record for &R {
    const COLUMNS: &'static [Column] = R::COLUMNS;
    const EMPTY_STRING_IS_NULL: bool = R::EMPTY_STRING_IS_NULL;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        (**self).cells(cells);
    }
}

/// A cell as Parquet stores it, in a record's row (`Typed`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An empty cell.
    Null,
    /// Text, at `start..end` of `Typed::text` (32 bits each, so that a value is 16
    /// bytes: one game's rows of text are far below 4 GiB).
    Text {
        start: u32,
        end: u32,
    },
    Unsigned(u64),
    Signed(i64),
    Decimal(Decimal),
    Bool(bool),
    /// A list as its JSON array text, at `start..end` of `Typed::text`.
    List {
        start: u32,
        end: u32,
    },
}

/// The cells of a few records as typed values, row after row, for Parquet: numbers stay
/// numbers; only text (and a list's JSON text) is held as text. Two buffers whatever the
/// columns: the writer sorts a `stats` game's one row into its columns
/// (`output::parquet::Rows` holds many rows column by column instead).
#[derive(Debug, Default)]
pub struct Typed {
    pub(crate) text: String,
    pub(crate) values: Vec<Value>,
}

impl Typed {
    /// Cells of rows as their text, typed by nothing: a column's reader parses them
    /// (the cells a `--where` made for `stats`).
    pub fn of_text(cells: &Cells) -> Typed {
        let mut typed = Typed::default();
        for cell in cells.iter() {
            typed.text(cell);
        }
        typed
    }

    /// Appends a text; where it lies (a text past 4 GiB reads as empty).
    fn push_text(&mut self, text: &str) -> (u32, u32) {
        let start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push_str(text);
        let end = u32::try_from(self.text.len()).unwrap_or(start);
        (start, end.max(start))
    }

    /// A text value's text.
    #[inline]
    pub fn str(&self, start: u32, end: u32) -> &str {
        self.text
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// The values, row after row.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
}

impl CellSink for Typed {
    fn text(&mut self, value: &str) {
        let (start, end) = self.push_text(value);
        self.values.push(Value::Text { start, end });
    }
    fn number(&mut self, value: impl Into<u64>) {
        self.values.push(Value::Unsigned(value.into()));
    }
    fn optional(&mut self, value: Option<impl Into<u64>>) {
        self.values
            .push(value.map_or(Value::Null, |n| Value::Unsigned(n.into())));
    }
    fn signed(&mut self, value: Option<i64>) {
        self.values.push(value.map_or(Value::Null, Value::Signed));
    }
    fn decimal(&mut self, value: Option<Decimal>) {
        self.values.push(value.map_or(Value::Null, Value::Decimal));
    }
    fn bool(&mut self, value: bool) {
        self.values.push(Value::Bool(value));
    }
    fn list(&mut self, json_array: &str) {
        let (start, end) = self.push_text(json_array);
        self.values.push(Value::List { start, end });
    }
}

/// Whether CSV must quote a cell: it holds a comma, a quote, CR or LF (the csv crate's
/// default writer). Every byte is looked at, without stopping early, so that the loop
/// runs on whole vectors: most cells are short and need none.
fn needs_quotes(cell: &[u8]) -> bool {
    cell.iter().fold(false, |found, &b| {
        found | matches!(b, b',' | b'"' | b'\n' | b'\r')
    })
}

/// Appends `n` in decimal: a stats row has some thirty numbers, and `write!` costs more
/// than the digits. Most of them are one digit (0 above all: no promotion, no
/// repetition), pushed as one byte without the formatter's buffer and a call to copy it.
fn push_decimal(text: &mut String, n: u64) {
    if let Ok(digit @ 0..=9) = u8::try_from(n) {
        text.push(char::from(b'0' + digit));
        return;
    }
    text.push_str(itoa::Buffer::new().format(n));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::{Cells, push_decimal};

    /// Cells read back as pushed, by index and in order, also after `extend_from`, and
    /// their joined text is the cells with commas between them.
    #[test]
    fn cells_read_back_as_pushed() {
        let mut cells = Cells::default();
        cells.text("a,b");
        cells.optional(None::<u32>);
        cells.number(12u32);
        cells.bool(true);
        cells.text("");
        cells.signed(Some(-17));
        cells.signed(None);
        let mut more = Cells::default();
        more.text("x");
        more.number(7u32);
        let mut all = Cells::default();
        all.extend_from(&Cells::default());
        all.extend_from(&cells);
        all.extend_from(&more);
        let expected = ["a,b", "", "12", "true", "", "-17", "", "x", "7"];
        assert_eq!(all.iter().collect::<Vec<_>>(), expected);
        for (index, cell) in expected.iter().enumerate() {
            assert_eq!(all.get(index), Some(*cell));
        }
        assert_eq!(all.get(expected.len()), None);
        assert_eq!(all.len(), expected.len());
        assert_eq!(all.joined(), "a,b,,12,true,,-17,,x,7");
        assert_eq!(all.quoted, [0]);
        more.text("\"");
        more.text("cr\r");
        all.extend_from(&more);
        assert_eq!(all.quoted, [0, 11, 12]);
        let mut one = Cells::default();
        one.optional(None::<u32>);
        assert_eq!(one.iter().collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn decimals_as_display_writes_them() {
        for n in [
            0,
            1,
            7,
            9,
            10,
            99,
            100,
            255,
            256,
            12345,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut text = String::from("x");
            push_decimal(&mut text, n);
            assert_eq!(text, format!("x{n}"));
        }
    }
}
