//! Parts of a string column as a string-view column (Arrow's `Utf8View`)
//! whose views point into the input's own buffers.
//!
//! A part written unchanged in a URL (a host, a path) is a slice of its
//! row. A view is 16 bytes: up to 12 bytes of text held in itself, or a
//! length, a prefix, a buffer and an offset. So a part longer than 12
//! bytes costs its view alone, whatever its length, and the input's value
//! buffer is shared, not copied: the answer holds it alive. A part that
//! is not in the input (a decoded escape, a lower-cased scheme) is copied
//! into one buffer of the answer's own.
//!
//! Views are what the kernels make, and what `views=True` hands back:
//! the parts of a valid URL are ASCII slices of it, so a view of one
//! needs no check and no copy, and the SQL engines (DuckDB 1.1+,
//! DataFusion, Polars) read them. The answer then keeps the input's
//! buffer alive as long as it lives.
//!
//! By default the answer is a plain string column instead ([`plain`]):
//! `string` for a `string` or `binary` input, `large_string` for a large
//! one; a view input keeps its views. pyarrow's compute functions, its
//! CSV writer and pandas do not all take views (`pc.equal`, `filter`,
//! `take`, joins), and some count a null view as `""` (`pc.unique`,
//! `value_counts`): a plain column is what every tool takes. The copy's
//! cost is in benches/python/README.md.

use arrow_array::builder::{make_view, GenericStringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, GenericListArray, GenericStringArray, OffsetSizeTrait, StringViewArray, StructArray,
};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder, Buffer, NullBuffer, ScalarBuffer};
use arrow_data::ByteView;
use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;

/// What the string columns of an answer become: kept as views, or
/// copied into a plain `string` or `large_string` column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strings {
    Views,
    Plain,
    Large,
}

impl Strings {
    /// The answer's strings for an input of type `input`: views when
    /// asked (`views=True`) or when the input is views, else plain
    /// strings as large as the input's.
    pub fn for_input(input: &DataType, views: bool) -> Strings {
        match input {
            _ if views => Strings::Views,
            DataType::Utf8View | DataType::BinaryView => Strings::Views,
            DataType::LargeUtf8 | DataType::LargeBinary => Strings::Large,
            DataType::Dictionary(_, values) => Strings::for_input(values, false),
            _ => Strings::Plain,
        }
    }
}

/// `answer` with its string-view columns (a struct's fields, a list's
/// items too) as `strings` says; other columns as they are.
///
/// # Errors
///
/// When a `string` column would pass 2 GiB of text (a dictionary's rows
/// gathered): ask for views, or give a `large_string` column.
pub fn plain(answer: ArrayRef, strings: Strings) -> Result<ArrayRef, String> {
    match (strings, answer.data_type()) {
        (Strings::Views, _) => Ok(answer),
        (_, DataType::Utf8View) => match strings {
            Strings::Large => copy::<i64>(answer.as_string_view()),
            _ => copy::<i32>(answer.as_string_view()),
        },
        (_, DataType::Struct(_)) => {
            let s = answer.as_struct();
            let columns =
                s.columns().iter().map(|c| plain(c.clone(), strings)).collect::<Result<Vec<_>, _>>()?;
            let fields: Fields = s
                .fields()
                .iter()
                .zip(&columns)
                .map(|(f, c)| Arc::new(f.as_ref().clone().with_data_type(c.data_type().clone())))
                .collect();
            Ok(Arc::new(StructArray::new(fields, columns, s.nulls().cloned())))
        }
        (_, DataType::List(_)) => list::<i32>(answer.as_list::<i32>(), strings),
        (_, DataType::LargeList(_)) => list::<i64>(answer.as_list::<i64>(), strings),
        _ => Ok(answer),
    }
}

fn list<O: OffsetSizeTrait>(l: &GenericListArray<O>, strings: Strings) -> Result<ArrayRef, String> {
    let values = plain(l.values().clone(), strings)?;
    let (DataType::List(f) | DataType::LargeList(f)) = l.data_type() else { unreachable!("a list") };
    let field = Arc::new(Field::clone(f).with_data_type(values.data_type().clone()));
    Ok(Arc::new(GenericListArray::<O>::new(field, l.offsets().clone(), values, l.nulls().cloned())))
}

/// The views' texts copied into one buffer with offsets; nulls kept null.
fn copy<O: OffsetSizeTrait>(v: &StringViewArray) -> Result<ArrayRef, String> {
    let total: usize = v
        .views()
        .iter()
        .enumerate()
        .filter(|&(i, _)| v.is_valid(i))
        .map(|(_, &raw)| raw as u32 as usize)
        .sum();
    if O::from_usize(total).is_none() {
        return Err(format!(
            "the answer holds {total} bytes of text, more than a string column does: \
             pass views=True, or a large_string column"
        ));
    }
    let mut out = GenericStringBuilder::<O>::with_capacity(v.len(), total);
    for i in 0..v.len() {
        if v.is_valid(i) {
            out.append_value(v.value(i));
        } else {
            out.append_null();
        }
    }
    let out: GenericStringArray<O> = out.finish();
    Ok(Arc::new(out))
}

/// Where a row's bytes lie: in a buffer of the input at an offset, or
/// nowhere that a view can point (held in its view, or past 4 GiB).
#[derive(Clone, Copy)]
pub enum At {
    Buffer(u32, u32),
    Elsewhere,
}

/// The longest value a view holds in itself (Arrow's columnar format).
const MAX_INLINE: usize = 12;

/// The buffers of a string column that its rows lie in: what the answer's
/// views may point into.
pub fn buffers(a: &dyn Array) -> Vec<Buffer> {
    fn offsets(values: &Buffer) -> Vec<Buffer> {
        if values.len() <= u32::MAX as usize {
            vec![values.clone()]
        } else {
            Vec::new()
        }
    }
    match a.data_type() {
        DataType::Utf8 => offsets(a.as_string::<i32>().values()),
        DataType::LargeUtf8 => offsets(a.as_string::<i64>().values()),
        DataType::Binary => offsets(a.as_binary::<i32>().values()),
        DataType::LargeBinary => offsets(a.as_binary::<i64>().values()),
        DataType::Utf8View => a.as_string_view().data_buffers().to_vec(),
        DataType::BinaryView => a.as_binary_view().data_buffers().to_vec(),
        _ => Vec::new(),
    }
}

/// Calls `f` with each row of a string (or binary) column that is not
/// dictionary-encoded: its text and where it lies in [`buffers`]; `None`
/// for a null. A string column's text is UTF-8 by the producer's promise
/// (the C data interface; its layout is checked on the way in); a binary
/// value that is not UTF-8 is given as `""`, which is no URL either
/// (§2.2: a URL is ASCII).
///
/// # Errors
///
/// A column of another type.
pub fn each_row<'a>(a: &'a dyn Array, mut f: impl FnMut(Option<(&'a str, At)>)) -> Result<(), String> {
    fn offsets<'a, O: OffsetSizeTrait>(
        values: usize,
        offsets: &'a [O],
        nulls: Option<&NullBuffer>,
        value: impl Fn(usize) -> &'a str,
        mut f: impl FnMut(Option<(&'a str, At)>),
    ) {
        let shared = values <= u32::MAX as usize;
        for (i, start) in offsets[..offsets.len() - 1].iter().enumerate() {
            if nulls.is_some_and(|n| n.is_null(i)) {
                f(None);
                continue;
            }
            let at = if shared { At::Buffer(0, start.as_usize() as u32) } else { At::Elsewhere };
            f(Some((value(i), at)));
        }
    }
    fn views<'a>(
        raw: &'a [u128],
        nulls: Option<&NullBuffer>,
        value: impl Fn(usize) -> &'a str,
        mut f: impl FnMut(Option<(&'a str, At)>),
    ) {
        for (i, view) in raw.iter().enumerate() {
            if nulls.is_some_and(|n| n.is_null(i)) {
                f(None);
            } else if *view as u32 as usize <= MAX_INLINE {
                f(Some((value(i), At::Elsewhere)));
            } else {
                let v = ByteView::from(*view);
                f(Some((value(i), At::Buffer(v.buffer_index, v.offset))));
            }
        }
    }
    fn text(b: &[u8]) -> &str {
        std::str::from_utf8(b).unwrap_or("")
    }
    match a.data_type() {
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            offsets(s.values().len(), s.value_offsets(), a.nulls(), |i| s.value(i), f);
        }
        DataType::LargeUtf8 => {
            let s = a.as_string::<i64>();
            offsets(s.values().len(), s.value_offsets(), a.nulls(), |i| s.value(i), f);
        }
        DataType::Binary => {
            let s = a.as_binary::<i32>();
            offsets(s.values().len(), s.value_offsets(), a.nulls(), |i| text(s.value(i)), f);
        }
        DataType::LargeBinary => {
            let s = a.as_binary::<i64>();
            offsets(s.values().len(), s.value_offsets(), a.nulls(), |i| text(s.value(i)), f);
        }
        DataType::Utf8View => {
            let s = a.as_string_view();
            views(s.views(), a.nulls(), |i| s.value(i), f);
        }
        DataType::BinaryView => {
            let s = a.as_binary_view();
            views(s.views(), a.nulls(), |i| text(s.value(i)), f);
        }
        DataType::Null => (0..a.len()).for_each(|_| f(None)),
        other => return Err(format!("a column of URLs holds strings, not {other}")),
    }
    Ok(())
}

/// A string-view column being written: views into the input's buffers
/// where a part lies in them, into a buffer of its own where not.
///
/// A column that is mostly null (a user, a fragment) is [`Parts::sparse`]:
/// its views start zeroed (`calloc`: fresh pages the system maps on first
/// write) and a null row writes nothing, so it costs the pages its few
/// values fall in, not 16 bytes a row. A dense one (a host) writes every
/// view in turn, with no zeroing first.
pub struct Parts {
    views: Vec<u128>,
    sparse: bool,
    /// The rows that hold a value, a bit each: a dense column's start
    /// set and a null row clears its bit, a sparse one's start clear and
    /// a row with a value sets it (the commoner row writes nothing).
    valid: Vec<u8>,
    /// The row being written.
    row: usize,
    /// Null rows.
    nulls: usize,
    /// The input's buffers, then the answer's own, filled one by one.
    buffers: Vec<Buffer>,
    own: Vec<u8>,
}

/// The most bytes of the answer's own buffer before a new one is begun
/// (a view's offset is a `u32`).
const OWN_MAX: usize = 1 << 31;

impl Parts {
    /// A column of `len` rows over `buffers` (see [`buffers`]).
    pub fn new(len: usize, buffers: Vec<Buffer>) -> Parts {
        let views = Vec::with_capacity(len);
        Parts {
            views,
            sparse: false,
            valid: vec![0xff; len.div_ceil(8)],
            row: 0,
            nulls: 0,
            buffers,
            own: Vec::new(),
        }
    }

    /// [`Parts::new`] for a column most of whose rows are null.
    pub fn sparse(len: usize, buffers: Vec<Buffer>) -> Parts {
        let valid = vec![0; len.div_ceil(8)];
        Parts { views: vec![0; len], sparse: true, valid, row: 0, nulls: 0, buffers, own: Vec::new() }
    }

    /// A null row.
    #[inline]
    pub fn null(&mut self) {
        if !self.sparse {
            self.views.push(0);
            if let Some(bits) = self.valid.get_mut(self.row / 8) {
                *bits &= !(1 << (self.row % 8));
            }
        }
        self.row += 1;
        self.nulls += 1;
    }

    /// The next row holds `view`.
    #[inline]
    fn push(&mut self, view: u128) {
        let row = self.row;
        if self.sparse {
            self.views[row] = view;
            self.valid[row / 8] |= 1 << (row % 8);
        } else {
            self.views.push(view);
        }
        self.row += 1;
    }

    /// A row holding `part`, which is text of `row` when it lies in it
    /// (`row` lying `at`), copied when not.
    #[inline(always)]
    pub fn part(&mut self, part: &str, row: &str, at: At) {
        let offset = (part.as_ptr() as usize).wrapping_sub(row.as_ptr() as usize);
        match at {
            At::Buffer(b, start)
                if part.len() > MAX_INLINE
                    && row.len().checked_sub(part.len()).is_some_and(|max| offset <= max) =>
            {
                self.push(make_view(part.as_bytes(), b, start + offset as u32));
            }
            _ => self.copy(part),
        }
    }

    /// A row holding `view`, made already: one of a text held in it, or
    /// into a buffer this column has.
    #[inline]
    pub fn view(&mut self, view: u128) {
        self.push(view);
    }

    /// A row holding `text`, copied (into its view when it is short).
    #[inline]
    pub fn copy(&mut self, text: &str) {
        let view =
            if text.len() <= MAX_INLINE { make_view(text.as_bytes(), 0, 0) } else { self.own_view(text) };
        self.push(view);
    }

    /// The view of `text` copied into the answer's own buffer.
    fn own_view(&mut self, text: &str) -> u128 {
        if self.own.len() + text.len() > OWN_MAX {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let block = self.buffers.len() as u32;
        let view = make_view(text.as_bytes(), block, self.own.len() as u32);
        self.own.extend_from_slice(text.as_bytes());
        view
    }

    /// The views of another column of parts, row by row (a dictionary's
    /// rows through its values' answer).
    pub fn gather(
        values: &StringViewArray,
        keys: impl Iterator<Item = Option<usize>>,
        len: usize,
    ) -> StringViewArray {
        let all = values.views();
        let mut views = Vec::with_capacity(len);
        let mut valid = BooleanBufferBuilder::new(len);
        for key in keys {
            match key.filter(|&k| values.is_valid(k)) {
                Some(k) => {
                    views.push(all[k]);
                    valid.append(true);
                }
                None => {
                    views.push(0);
                    valid.append(false);
                }
            }
        }
        let nulls = NullBuffer::new(valid.finish());
        StringViewArray::try_new(ScalarBuffer::from(views), values.data_buffers().to_vec(), Some(nulls))
            .expect("views of a valid column")
    }

    /// The column.
    ///
    /// # Errors
    ///
    /// None expected: every view was made from text in bounds.
    pub fn finish(mut self) -> Result<StringViewArray, String> {
        let len = self.views.len();
        if self.row != len || self.valid.len() != len.div_ceil(8) {
            return Err(format!("{} rows of parts written, {len} expected", self.row));
        }
        if !self.own.is_empty() {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let nulls = (self.nulls > 0)
            .then(|| NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(self.valid), 0, len)));
        Ok(crate::ffi::string_views(ScalarBuffer::from(self.views), self.buffers, nulls))
    }
}
