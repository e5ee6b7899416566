//! DuckDB's C extension API, the part the functions use: their types,
//! their registration, the VARCHAR column they are called with, and the
//! columns, structs and lists of their results.
//!
//! The one module allowed `unsafe` besides the entry point (the crate
//! denies it): every call into DuckDB and every read or write of a
//! vector's raw storage is here, each block with a `// SAFETY:` line.
//! What it offers the rest of the crate is safe.
#![allow(unsafe_code)]

use libduckdb_sys as ffi;
use std::error::Error;
use std::ffi::{c_char, CString};
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A connection to the database that loads the extension; closed on drop.
pub struct Connection(pub(crate) ffi::duckdb_connection);

impl Connection {
    /// A connection to `db`.
    ///
    /// # Safety
    ///
    /// `db` is the open database DuckDB handed the entry point.
    pub unsafe fn open(db: ffi::duckdb_database) -> Result<Connection, Box<dyn Error>> {
        let mut con = std::ptr::null_mut();
        // SAFETY: `db` is open (the caller's promise); `con` is written.
        if unsafe { ffi::duckdb_connect(db, &mut con) } != ffi::DuckDBSuccess {
            return Err("DuckDB refused a connection to the database".into());
        }
        Ok(Connection(con))
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // SAFETY: `self.0` was opened by `duckdb_connect` and is closed once.
        unsafe { ffi::duckdb_disconnect(&mut self.0) }
    }
}

/// The DuckDB types the results are built from.
#[derive(Clone, Copy)]
pub enum Id {
    /// BOOLEAN, stored as one byte.
    Boolean,
    /// USMALLINT, stored as `u16`.
    USmallint,
    /// INTEGER, stored as `i32`.
    Integer,
    /// BIGINT, stored as `i64`.
    Bigint,
    /// DOUBLE, stored as `f64`.
    Double,
    /// VARCHAR.
    Varchar,
    /// TIMESTAMP WITH TIME ZONE, stored as `i64` microseconds since the
    /// epoch (UTC).
    TimestampTz,
}

/// A DuckDB type, owned; destroyed on drop.
pub struct LogicalType(pub(crate) ffi::duckdb_logical_type);

impl LogicalType {
    /// The type `id`.
    pub fn of(id: Id) -> LogicalType {
        let ty = match id {
            Id::Boolean => ffi::DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN,
            Id::USmallint => ffi::DUCKDB_TYPE_DUCKDB_TYPE_USMALLINT,
            Id::Integer => ffi::DUCKDB_TYPE_DUCKDB_TYPE_INTEGER,
            Id::Bigint => ffi::DUCKDB_TYPE_DUCKDB_TYPE_BIGINT,
            Id::Double => ffi::DUCKDB_TYPE_DUCKDB_TYPE_DOUBLE,
            Id::Varchar => ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR,
            Id::TimestampTz => ffi::DUCKDB_TYPE_DUCKDB_TYPE_TIMESTAMP_TZ,
        };
        // SAFETY: a primitive type id; DuckDB returns a new type we own.
        LogicalType(unsafe { ffi::duckdb_create_logical_type(ty) })
    }

    /// `STRUCT(name type, ...)`.
    pub fn struct_type(fields: &[(&str, LogicalType)]) -> LogicalType {
        let names: Vec<CString> = fields.iter().map(|(n, _)| c_string(n)).collect();
        let mut name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let mut types: Vec<ffi::duckdb_logical_type> = fields.iter().map(|(_, t)| t.0).collect();
        // SAFETY: two arrays of `fields.len()` live names and types; DuckDB
        // copies them into the new type, which we own.
        LogicalType(unsafe {
            ffi::duckdb_create_struct_type(types.as_mut_ptr(), name_ptrs.as_mut_ptr(), fields.len() as u64)
        })
    }

    /// `item[]`.
    pub fn list(item: &LogicalType) -> LogicalType {
        // SAFETY: `item` is a live type; DuckDB copies it.
        LogicalType(unsafe { ffi::duckdb_create_list_type(item.0) })
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: a type we own, destroyed once.
        unsafe { ffi::duckdb_destroy_logical_type(&mut self.0) }
    }
}

/// A C string of `s`; SQL names and messages hold no NUL, and one that
/// does is cut there.
pub(crate) fn c_string(s: &str) -> CString {
    let end = s.find('\0').unwrap_or(s.len());
    CString::new(&s[..end]).unwrap_or_default()
}

/// One SQL function: VARCHAR in (`ARGS` of them), `returns()` out; and,
/// for a function that reads a URL, an overload with `lenient BOOLEAN`
/// after them.
pub trait Function {
    /// Its SQL name.
    const NAME: &'static str;
    /// How many VARCHAR arguments it takes: the URL, and after it any other.
    const ARGS: usize = 1;
    /// Whether it reads a URL, and so takes `lenient` last, optional.
    const LENIENT: bool = false;
    /// Its result type.
    fn returns() -> LogicalType;
    /// Writes the result of every row of a chunk; `lenient[row]` says
    /// whether that row's URL is read as `--lenient` reads it.
    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>);
    /// Writes the result of every row of a chunk, from each argument's
    /// rows; the error is the query's. By default, [`Function::write`] of
    /// the first.
    ///
    /// # Errors
    ///
    /// An argument the function cannot take (an unknown part name).
    fn write_args(args: &[Vec<Option<&[u8]>>], lenient: &[bool], out: &mut Output<'_>) -> Result<(), String> {
        Self::write(&args[0], lenient, out);
        Ok(())
    }
}

/// Registers `F` on `con` as `F::NAME(VARCHAR, ...)`, and for a function
/// that reads a URL as `F::NAME(VARCHAR, ..., BOOLEAN)` too: one name,
/// two overloads, in a function set.
///
/// # Errors
///
/// When DuckDB refuses it (a name taken by another kind of function).
pub fn register<F: Function>(con: &Connection) -> Result<(), Box<dyn Error>> {
    let name = c_string(F::NAME);
    let text = LogicalType::of(Id::Varchar);
    let flag = LogicalType::of(Id::Boolean);
    let returns = F::returns();
    let overloads: &[bool] = if F::LENIENT { &[false, true] } else { &[false] };
    // SAFETY: the new functions and the set are ours until destroyed
    // below; DuckDB copies the name, the types and the functions, which
    // outlive these calls.
    let state = unsafe {
        let mut set = ffi::duckdb_create_scalar_function_set(name.as_ptr());
        for &lenient in overloads {
            let mut f = ffi::duckdb_create_scalar_function();
            ffi::duckdb_scalar_function_set_name(f, name.as_ptr());
            for _ in 0..F::ARGS {
                ffi::duckdb_scalar_function_add_parameter(f, text.0);
            }
            if lenient {
                ffi::duckdb_scalar_function_add_parameter(f, flag.0);
            }
            ffi::duckdb_scalar_function_set_return_type(f, returns.0);
            ffi::duckdb_scalar_function_set_function(f, Some(invoke::<F>));
            ffi::duckdb_add_scalar_function_to_set(set, f);
            ffi::duckdb_destroy_scalar_function(&mut f);
        }
        let state = ffi::duckdb_register_scalar_function_set(con.0, set);
        ffi::duckdb_destroy_scalar_function_set(&mut set);
        state
    };
    if state == ffi::DuckDBSuccess {
        Ok(())
    } else {
        Err(format!("DuckDB refused the function {}", F::NAME).into())
    }
}

/// What DuckDB calls for each chunk of rows. A panic does not cross into
/// DuckDB: it fails the query with its message.
unsafe extern "C" fn invoke<F: Function>(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) {
    let done = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: DuckDB calls with a live chunk of `F::ARGS` VARCHAR
        // columns, then the BOOLEAN `lenient` of the overload that takes
        // it, and the result vector, all valid for this call.
        let (mut args, flags) = unsafe {
            let args: Vec<_> = (0..F::ARGS).map(|i| texts(input, i)).collect();
            let columns = ffi::duckdb_data_chunk_get_column_count(input) as usize;
            (args, (columns > F::ARGS).then(|| booleans(input, F::ARGS)))
        };
        let rows = args[0].len();
        let lenient = match flags {
            None => vec![false; rows],
            Some(flags) => {
                // A NULL `lenient` is a NULL result, as any NULL argument.
                for (row, flag) in flags.iter().enumerate() {
                    if flag.is_none() {
                        args.iter_mut().for_each(|a| a[row] = None);
                    }
                }
                flags.iter().map(|f| *f == Some(true)).collect()
            }
        };
        F::write_args(&args, &lenient, &mut Output { vector: output, rows, chunk: PhantomData })
    }));
    if let Ok(Err(why)) = &done {
        let message = c_string(&format!("{}: {why}", F::NAME));
        // SAFETY: `info` is this call's; DuckDB copies the message.
        unsafe { ffi::duckdb_scalar_function_set_error(info, message.as_ptr()) }
    }
    if let Err(panic) = done {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let message = c_string(&format!("{}: {what}", F::NAME));
        // SAFETY: `info` is this call's; DuckDB copies the message.
        unsafe { ffi::duckdb_scalar_function_set_error(info, message.as_ptr()) }
    }
}

/// The rows of the column `index` of `chunk`, a BOOLEAN column: `None`
/// for a NULL.
///
/// # Safety
///
/// `chunk` is live and its column `index` is BOOLEAN.
unsafe fn booleans(chunk: ffi::duckdb_data_chunk, index: usize) -> Vec<Option<bool>> {
    // SAFETY: the input is flat (see `texts`); a BOOLEAN is one byte, 0
    // or 1, one a row; the validity mask is NULL when every row is valid.
    unsafe {
        let len = ffi::duckdb_data_chunk_get_size(chunk) as usize;
        let column = ffi::duckdb_data_chunk_get_vector(chunk, index as u64);
        let validity = ffi::duckdb_vector_get_validity(column);
        let values = ffi::duckdb_vector_get_data(column) as *const u8;
        (0..len)
            .map(|row| {
                if !validity.is_null() && !ffi::duckdb_validity_row_is_valid(validity, row as u64) {
                    return None;
                }
                Some(*values.add(row) != 0)
            })
            .collect()
    }
}

/// The rows of the column `index` of `chunk`, a VARCHAR column: each
/// string's bytes, `None` for a NULL.
///
/// # Safety
///
/// `chunk` is live for `'a` and its column `index` is VARCHAR.
unsafe fn texts<'a>(chunk: ffi::duckdb_data_chunk, index: usize) -> Vec<Option<&'a [u8]>> {
    // SAFETY: DuckDB flattens the input of a C API scalar function, so
    // rows `0..len` of the column are in place as `duckdb_string_t`, with
    // the validity mask NULL when every row is valid. A string of at most
    // 12 bytes is stored inline (duckdb.h, `duckdb_string_t`), a longer one
    // behind its pointer; both stay put while the chunk lives.
    unsafe {
        let len = ffi::duckdb_data_chunk_get_size(chunk) as usize;
        let column = ffi::duckdb_data_chunk_get_vector(chunk, index as u64);
        let validity = ffi::duckdb_vector_get_validity(column);
        let strings = ffi::duckdb_vector_get_data(column) as *const ffi::duckdb_string_t;
        (0..len)
            .map(|row| {
                if !validity.is_null() && !ffi::duckdb_validity_row_is_valid(validity, row as u64) {
                    return None;
                }
                let s = &*strings.add(row);
                let n = s.value.inlined.length as usize;
                let data = if n <= 12 { s.value.inlined.inlined.as_ptr() } else { s.value.pointer.ptr };
                Some(std::slice::from_raw_parts(data.cast::<u8>(), n))
            })
            .collect()
    }
}

/// The result vector of one call, of `rows` rows.
pub struct Output<'a> {
    vector: ffi::duckdb_vector,
    rows: usize,
    chunk: PhantomData<&'a ()>,
}

impl<'a> Output<'a> {
    /// The result as a column of scalars.
    pub fn flat_vector(&mut self) -> Column<'a> {
        Column::new(self.vector, self.rows)
    }

    /// The result as a column of structs.
    pub fn struct_vector(&mut self) -> Struct<'a> {
        Struct::new(self.vector, self.rows)
    }

    /// The result as a column of lists.
    pub fn list_vector(&mut self) -> List<'a> {
        List { vector: self.vector, rows: self.rows, chunk: PhantomData }
    }
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

// BOOLEAN is one byte (0 or 1), USMALLINT u16, INTEGER i32, BIGINT i64,
// DOUBLE f64.
plain!(bool, u16, i32, i64, f64);

/// Marks `row` of `vector` NULL.
fn set_null(vector: ffi::duckdb_vector, row: usize) {
    // SAFETY: the vector is live while its column is borrowed, and its
    // mask is made writable (allocated) before the row is cleared.
    unsafe {
        ffi::duckdb_vector_ensure_validity_writable(vector);
        ffi::duckdb_validity_set_row_invalid(ffi::duckdb_vector_get_validity(vector), row as u64);
    }
}

/// A column of scalar values: the result, or a field of a struct.
pub struct Column<'a> {
    vector: ffi::duckdb_vector,
    capacity: usize,
    chunk: PhantomData<&'a ()>,
}

impl Column<'_> {
    pub(crate) fn new(vector: ffi::duckdb_vector, capacity: usize) -> Self {
        Column { vector, capacity, chunk: PhantomData }
    }

    /// Writes a VARCHAR value, or NULL.
    ///
    /// # Panics
    ///
    /// When `row` is past the column's capacity.
    pub fn text(&mut self, row: usize, value: Option<&str>) {
        assert!(row < self.capacity, "row {row} past the vector's {}", self.capacity);
        let Some(v) = value else { return set_null(self.vector, row) };
        // SAFETY: a VARCHAR vector (the function's signature) and a row
        // within its capacity; DuckDB copies the bytes.
        unsafe {
            ffi::duckdb_vector_assign_string_element_len(
                self.vector,
                row as u64,
                v.as_ptr().cast(),
                v.len() as u64,
            )
        }
    }

    /// Writes a BOOLEAN or integer value, or NULL.
    ///
    /// # Panics
    ///
    /// When `row` is past the column's capacity.
    pub fn value<T: Plain>(&mut self, row: usize, value: Option<T>) {
        assert!(row < self.capacity, "row {row} past the vector's {}", self.capacity);
        let Some(v) = value else { return set_null(self.vector, row) };
        // SAFETY: the function's signature gives this vector the DuckDB
        // type whose storage is `T` (see `Plain`), and `row` is within the
        // capacity checked above; a single write aliases nothing.
        unsafe { ffi::duckdb_vector_get_data(self.vector).cast::<T>().add(row).write(v) }
    }
}

/// A column of structs: the result, a field, or the items of a list.
pub struct Struct<'a> {
    vector: ffi::duckdb_vector,
    capacity: usize,
    chunk: PhantomData<&'a ()>,
}

impl<'a> Struct<'a> {
    fn new(vector: ffi::duckdb_vector, capacity: usize) -> Self {
        Struct { vector, capacity, chunk: PhantomData }
    }

    fn child(&self, index: usize) -> ffi::duckdb_vector {
        // SAFETY: a STRUCT vector (the function's signature) and a field
        // index the caller's type has.
        unsafe { ffi::duckdb_struct_vector_get_child(self.vector, index as u64) }
    }

    /// The field at `index`, a scalar column.
    pub fn field(&self, index: usize) -> Column<'a> {
        Column::new(self.child(index), self.capacity)
    }

    /// The field at `index`, a struct.
    pub fn struct_field(&self, index: usize) -> Struct<'a> {
        Struct::new(self.child(index), self.capacity)
    }

    /// The field at `index`, a list.
    pub fn list(&self, index: usize) -> List<'a> {
        List { vector: self.child(index), rows: self.capacity, chunk: PhantomData }
    }

    /// Marks a row NULL. Its fields are written NULL too, by the caller.
    pub fn set_null(&mut self, row: usize) {
        set_null(self.vector, row);
    }
}

/// A column of lists: the result, or a field of a struct.
pub struct List<'a> {
    vector: ffi::duckdb_vector,
    rows: usize,
    chunk: PhantomData<&'a ()>,
}

impl<'a> List<'a> {
    /// The child vector of every list's items, grown to `total` rows.
    fn items(&mut self, total: usize) -> ffi::duckdb_vector {
        // SAFETY: a LIST vector (the function's signature); its child is
        // grown to `total` rows before any is written.
        unsafe {
            if ffi::duckdb_list_vector_reserve(self.vector, total as u64) != ffi::DuckDBSuccess {
                panic!("DuckDB could not make room for {total} list items");
            }
            ffi::duckdb_list_vector_get_child(self.vector)
        }
    }

    /// The items of every list, a struct column of `total` rows.
    fn struct_items(&mut self, total: usize) -> Struct<'a> {
        Struct::new(self.items(total), total)
    }

    /// Sets list `row` to the items `at..at + len` of the child.
    fn set_entry(&mut self, row: usize, at: usize, len: usize) {
        assert!(row < self.rows, "row {row} past the vector's {}", self.rows);
        let entry = ffi::duckdb_list_entry { offset: at as u64, length: len as u64 };
        // SAFETY: a LIST vector stores one `duckdb_list_entry` a row, and
        // `row` is within its rows (checked above).
        unsafe {
            ffi::duckdb_vector_get_data(self.vector).cast::<ffi::duckdb_list_entry>().add(row).write(entry)
        }
    }

    fn set_len(&mut self, total: usize) {
        // SAFETY: the child was reserved for `total` rows, all written.
        if unsafe { ffi::duckdb_list_vector_set_size(self.vector, total as u64) } != ffi::DuckDBSuccess {
            panic!("DuckDB refused a list of {total} items");
        }
    }
}

/// Writes a list per row: `items[row]` is `None` for a NULL list. Each
/// item is written by `write` into the list's struct child, at its row
/// there.
pub fn struct_lists<T>(
    mut list: List<'_>,
    items: &[Option<Vec<T>>],
    mut write: impl FnMut(&mut Struct<'_>, usize, &T),
) {
    let total: usize = items.iter().flatten().map(Vec::len).sum();
    let mut child = list.struct_items(total);
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
            None => set_null(list.vector, row),
        }
    }
    list.set_len(total);
}

/// Writes a list of VARCHAR per row: `lists[row]` is the range of
/// `items` it holds, `None` for a NULL list.
pub fn text_lists(mut list: List<'_>, lists: &[Option<Range<usize>>], items: &[&str]) {
    let total = items.len();
    let mut child = Column::new(list.items(total), total);
    for (at, item) in items.iter().enumerate() {
        child.text(at, Some(item));
    }
    for (row, range) in lists.iter().enumerate() {
        match range {
            Some(r) => {
                // DuckDB trusts an entry: one past the items would be read.
                assert!(r.start <= r.end && r.end <= total, "list {r:?} past the {total} items");
                list.set_entry(row, r.start, r.len());
            }
            None => {
                list.set_entry(row, 0, 0);
                set_null(list.vector, row);
            }
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
    list: List<'a>,
    child: Option<Struct<'a>>,
    capacity: usize,
    len: usize,
    row_start: usize,
}

impl<'a> ListWriter<'a> {
    /// A writer of the rows of `list`.
    pub fn new(list: List<'a>) -> Self {
        ListWriter { list, child: None, capacity: 0, len: 0, row_start: 0 }
    }

    /// The struct child and the row of the next item of the current list,
    /// which the caller writes.
    pub fn item(&mut self) -> (&mut Struct<'a>, usize) {
        if self.len == self.capacity {
            self.capacity = (self.capacity * 2).max(1024);
            // DuckDB keeps the items already written when it grows the
            // child; the struct is taken again at its new capacity.
            self.child = Some(self.list.struct_items(self.capacity));
        }
        let row = self.len;
        self.len += 1;
        (self.child.as_mut().expect("reserved above"), row)
    }

    /// Ends the list of `row`, NULL when `null`.
    pub fn end_row(&mut self, row: usize, null: bool) {
        self.list.set_entry(row, self.row_start, self.len - self.row_start);
        if null {
            set_null(self.list.vector, row);
        }
        self.row_start = self.len;
    }

    /// Sets the number of items written.
    pub fn finish(mut self) {
        self.list.set_len(self.len);
    }
}
