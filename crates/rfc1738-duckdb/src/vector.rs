//! DuckDB vectors in and out: the VARCHAR column a function is called
//! with, and the columns, structs and lists of its result.
//!
//! The one module allowed `unsafe` (the crate denies it): reading the
//! strings of a vector and writing fixed-size values into one go through
//! raw storage. Each block has a `// SAFETY:` line.
#![allow(unsafe_code)]

use duckdb::core::{
    DataChunkHandle, FlatVector, Inserter, ListVector, LogicalTypeHandle, LogicalTypeId, StructVector,
};
use duckdb::ffi::duckdb_string_t;
use duckdb::types::DuckString;

/// The rows of the first column of `input`, a VARCHAR column: each
/// string's bytes, `None` for a NULL.
pub fn texts(input: &DataChunkHandle) -> Vec<Option<&[u8]>> {
    let len = input.len();
    let column = input.flat_vector(0);
    let nulls: Vec<bool> = (0..len).map(|row| column.row_is_null(row as u64)).collect();
    // SAFETY: every function takes one VARCHAR, stored as `duckdb_string_t`;
    // DuckDB flattens the input of a C API scalar function, so rows
    // `0..len` are in place, and they stay so while `input` is borrowed,
    // which the result's lifetime holds. Nothing else touches the rows.
    let strings = unsafe { std::slice::from_raw_parts_mut(column.as_mut_ptr::<duckdb_string_t>(), len) };
    strings.iter_mut().zip(nulls).map(|(s, null)| (!null).then(|| DuckString::new(s).as_bytes())).collect()
}

/// The DuckDB type of a value of a result.
pub fn sql_type(id: LogicalTypeId) -> LogicalTypeHandle {
    LogicalTypeHandle::from(id)
}

/// Values stored in a DuckDB vector as the Rust value itself.
pub trait Plain: Copy + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Plain for $t {}
    )*};
}

// BOOLEAN is one byte (0 or 1), USMALLINT u16, INTEGER i32, BIGINT i64.
plain!(bool, u16, i32, i64);

/// A column of scalar values: the result, or a field of a struct.
pub struct Column<'a>(FlatVector<'a>);

impl<'a> Column<'a> {
    /// The column over `vector`.
    pub fn new(vector: FlatVector<'a>) -> Self {
        Column(vector)
    }

    /// Writes a VARCHAR value, or NULL.
    pub fn text(&mut self, row: usize, value: Option<&str>) {
        match value {
            Some(v) => self.0.insert(row, v),
            None => self.0.set_null(row),
        }
    }

    /// Writes a BOOLEAN or integer value, or NULL.
    ///
    /// # Panics
    ///
    /// When `row` is past the vector's capacity.
    pub fn value<T: Plain>(&mut self, row: usize, value: Option<T>) {
        let Some(v) = value else { return self.0.set_null(row) };
        assert!(row < self.0.capacity(), "row {row} past the vector's {}", self.0.capacity());
        // SAFETY: the function's signature gives this vector the DuckDB
        // type whose storage is `T` (see `Plain`), and `row` is within the
        // capacity checked above; a single write aliases nothing.
        unsafe { self.0.as_mut_ptr::<T>().add(row).write(v) }
    }
}

/// A column of structs: the result, or the items of a list.
pub struct Struct<'a> {
    vector: StructVector<'a>,
    capacity: usize,
}

impl<'a> Struct<'a> {
    /// The structs of `vector`, of which `capacity` rows are written.
    pub fn new(vector: StructVector<'a>, capacity: usize) -> Self {
        Struct { vector, capacity }
    }

    /// The field at `index`, a scalar column.
    pub fn field(&self, index: usize) -> Column<'a> {
        Column(self.vector.child(index, self.capacity))
    }

    /// The field at `index`, a struct.
    pub fn struct_field(&self, index: usize) -> StructVector<'a> {
        self.vector.struct_vector_child(index)
    }

    /// The field at `index`, a list.
    pub fn list(&self, index: usize) -> ListVector<'a> {
        self.vector.list_vector_child(index)
    }

    /// Marks a row NULL. Its fields are written NULL too, by the caller.
    pub fn set_null(&mut self, row: usize) {
        self.vector.set_null(row);
    }
}

/// Writes a list per row: `items[row]` is `None` for a NULL list. Each
/// item is written by `write` into the list's struct child, at its row
/// there.
pub fn struct_lists<T>(
    mut list: ListVector<'_>,
    items: &[Option<Vec<T>>],
    mut write: impl FnMut(&mut Struct<'_>, usize, &T),
) {
    let total: usize = items.iter().flatten().map(Vec::len).sum();
    let mut child = Struct::new(list.struct_child(total), total);
    let mut at = 0;
    for (row, item) in items.iter().enumerate() {
        let n = item.as_ref().map_or(0, Vec::len);
        list.set_entry(row, at, n);
        match item {
            Some(values) => {
                for v in values {
                    write(&mut child, at, v);
                    at += 1;
                }
            }
            None => list.set_null(row),
        }
    }
    list.set_len(total);
}

/// A column of lists of structs written a row at a time, each item as
/// it comes: nothing is collected beside DuckDB's own child vector, which
/// grows by doubling as DuckDB's lists do. For a list whose items are
/// made on the way (the URLs found in a long text), so the memory is the
/// result's own, not a copy of it too.
pub struct ListWriter<'a> {
    list: ListVector<'a>,
    child: Option<Struct<'a>>,
    capacity: usize,
    len: usize,
    row_start: usize,
}

impl<'a> ListWriter<'a> {
    /// A writer of the rows of `list`.
    pub fn new(list: ListVector<'a>) -> Self {
        ListWriter { list, child: None, capacity: 0, len: 0, row_start: 0 }
    }

    /// The struct child and the row of the next item of the current list,
    /// which the caller writes.
    pub fn item(&mut self) -> (&mut Struct<'a>, usize) {
        if self.len == self.capacity || self.child.is_none() {
            self.capacity = (self.capacity * 2).max(1024).max(self.len + 1);
            // DuckDB keeps the items already written when it grows the
            // child; the struct is taken again for the new capacity.
            self.child = Some(Struct::new(self.list.struct_child(self.capacity), self.capacity));
        }
        let row = self.len;
        self.len += 1;
        (self.child.as_mut().expect("reserved above"), row)
    }

    /// Ends the list of `row`, NULL when `null`.
    pub fn end_row(&mut self, row: usize, null: bool) {
        self.list.set_entry(row, self.row_start, self.len - self.row_start);
        if null {
            self.list.set_null(row);
        }
        self.row_start = self.len;
    }

    /// The number of items written.
    pub fn finish(self) {
        self.list.set_len(self.len);
    }
}
