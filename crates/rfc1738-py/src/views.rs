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
//! Why views rather than a string column with its own copy: the parts of
//! a valid URL are ASCII slices of it, so a view of one needs no check
//! and no copy; every engine here reads string views (pyarrow 16+,
//! Polars, DuckDB 1.1+, DataFusion). The cost is that the answer keeps
//! the input's buffer alive as long as it lives; `.cast(pa.string())`
//! makes a compact copy when that matters.

use arrow_array::cast::AsArray;
use arrow_array::{Array, OffsetSizeTrait, StringViewArray};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, ScalarBuffer};
use arrow_array::builder::make_view;
use arrow_data::ByteView;
use arrow_schema::DataType;

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
    fn offsets<O: OffsetSizeTrait>(values: &Buffer) -> Vec<Buffer> {
        if values.len() <= u32::MAX as usize {
            vec![values.clone()]
        } else {
            Vec::new()
        }
    }
    match a.data_type() {
        DataType::Utf8 => offsets::<i32>(a.as_string::<i32>().values()),
        DataType::LargeUtf8 => offsets::<i64>(a.as_string::<i64>().values()),
        DataType::Binary => offsets::<i32>(a.as_binary::<i32>().values()),
        DataType::LargeBinary => offsets::<i64>(a.as_binary::<i64>().values()),
        DataType::Utf8View => a.as_string_view().data_buffers().to_vec(),
        DataType::BinaryView => a.as_binary_view().data_buffers().to_vec(),
        _ => Vec::new(),
    }
}

/// Calls `f` with each row of a string (or binary) column that is not
/// dictionary-encoded: its bytes and where they lie in [`buffers`]; `None`
/// for a null.
///
/// # Errors
///
/// A column of another type.
pub fn each_row<'a>(a: &'a dyn Array, mut f: impl FnMut(Option<(&'a [u8], At)>)) -> Result<(), String> {
    fn offsets<'a, O: OffsetSizeTrait>(
        values: &'a [u8],
        offsets: &'a [O],
        nulls: Option<&NullBuffer>,
        mut f: impl FnMut(Option<(&'a [u8], At)>),
    ) {
        let shared = values.len() <= u32::MAX as usize;
        for (i, w) in offsets.windows(2).enumerate() {
            if nulls.is_some_and(|n| n.is_null(i)) {
                f(None);
                continue;
            }
            let (start, end) = (w[0].as_usize(), w[1].as_usize());
            let at = if shared { At::Buffer(0, start as u32) } else { At::Elsewhere };
            f(Some((&values[start..end], at)));
        }
    }
    fn views<'a>(
        raw: &'a [u128],
        buffers: &'a [Buffer],
        nulls: Option<&NullBuffer>,
        mut f: impl FnMut(Option<(&'a [u8], At)>),
    ) {
        for (i, view) in raw.iter().enumerate() {
            if nulls.is_some_and(|n| n.is_null(i)) {
                f(None);
                continue;
            }
            let len = *view as u32 as usize;
            if len <= MAX_INLINE {
                // The bytes of the view itself: its length, then its text.
                let inline = inline_bytes(view);
                f(Some((&inline[..len], At::Elsewhere)));
            } else {
                let v = ByteView::from(*view);
                let start = v.offset as usize;
                f(Some((&buffers[v.buffer_index as usize][start..start + len], At::Buffer(v.buffer_index, v.offset))));
            }
        }
    }
    match a.data_type() {
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            offsets(s.value_data(), s.value_offsets(), a.nulls(), f);
        }
        DataType::LargeUtf8 => {
            let s = a.as_string::<i64>();
            offsets(s.value_data(), s.value_offsets(), a.nulls(), f);
        }
        DataType::Binary => {
            let s = a.as_binary::<i32>();
            offsets(s.value_data(), s.value_offsets(), a.nulls(), f);
        }
        DataType::LargeBinary => {
            let s = a.as_binary::<i64>();
            offsets(s.value_data(), s.value_offsets(), a.nulls(), f);
        }
        DataType::Utf8View => {
            let s = a.as_string_view();
            views(s.views(), s.data_buffers(), a.nulls(), f);
        }
        DataType::BinaryView => {
            let s = a.as_binary_view();
            views(s.views(), s.data_buffers(), a.nulls(), f);
        }
        DataType::Null => (0..a.len()).for_each(|_| f(None)),
        other => return Err(format!("a column of URLs holds strings, not {other}")),
    }
    Ok(())
}

/// The 16 bytes of a view, in a slice that lives as long as the view.
fn inline_bytes(view: &u128) -> &[u8] {
    let bytes: &[u8; 16] = bytemuck_view(view);
    &bytes[4..]
}

/// A `u128` as its 16 bytes in memory: the format's layout of a view on
/// a little-endian machine (length first, then the text).
fn bytemuck_view(view: &u128) -> &[u8; 16] {
    let slice = std::slice::from_ref(view);
    let bytes: &[u8] = arrow_buffer::ToByteSlice::to_byte_slice(slice);
    bytes.try_into().expect("16 bytes")
}

/// A string-view column being written: views into the input's buffers
/// where a part lies in them, into a buffer of its own where not.
pub struct Parts {
    views: Vec<u128>,
    valid: BooleanBufferBuilder,
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
        Parts { views: Vec::with_capacity(len), valid: BooleanBufferBuilder::new(len), nulls: 0, buffers, own: Vec::new() }
    }

    /// A null row.
    pub fn null(&mut self) {
        self.views.push(0);
        self.valid.append(false);
        self.nulls += 1;
    }

    /// A row holding `part`, which is text of `row` when it lies in it
    /// (`row` lying `at`), copied when not.
    #[inline]
    pub fn part(&mut self, part: &str, row: &[u8], at: At) {
        let offset = (part.as_ptr() as usize).wrapping_sub(row.as_ptr() as usize);
        match at {
            At::Buffer(b, start) if part.len() > MAX_INLINE && row.len().checked_sub(part.len()).is_some_and(|max| offset <= max) => {
                self.views.push(make_view(part.as_bytes(), b, start + offset as u32));
                self.valid.append(true);
            }
            _ => self.copy(part),
        }
    }

    /// A row holding `text`, copied (into its view when it is short).
    pub fn copy(&mut self, text: &str) {
        if text.len() <= MAX_INLINE {
            self.views.push(make_view(text.as_bytes(), 0, 0));
        } else {
            if self.own.len() + text.len() > OWN_MAX {
                self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
            }
            let block = self.buffers.len() as u32;
            self.views.push(make_view(text.as_bytes(), block, self.own.len() as u32));
            self.own.extend_from_slice(text.as_bytes());
        }
        self.valid.append(true);
    }

    /// The views of another column of parts, row by row (a dictionary's
    /// rows through its values' answer).
    pub fn gather(values: &StringViewArray, keys: impl Iterator<Item = Option<usize>>, len: usize) -> StringViewArray {
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
        if !self.own.is_empty() {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let nulls = (self.nulls > 0).then(|| NullBuffer::new(self.valid.finish()));
        StringViewArray::try_new(ScalarBuffer::from(self.views), self.buffers, nulls).map_err(|e| e.to_string())
    }
}
