//! DuckDB's table functions through the C extension API: a function of
//! one VARCHAR argument and named ones, its columns decided when the
//! query is bound, its rows written a chunk at a time.
//!
//! Like `vector.rs`, the module allows `unsafe` (the crate denies it):
//! every call into DuckDB here has a `// SAFETY:` line, and what it
//! offers the rest of the crate (`TableFunction`, `Args`, `Chunk`) is
//! safe. A panic never crosses into DuckDB: it fails the query.
#![allow(unsafe_code)]

use crate::vector::{c_string, Column, Connection, Id, LogicalType};
use libduckdb_sys as ffi;
use std::error::Error;
use std::ffi::{c_void, CStr};
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A named argument's type.
#[derive(Clone, Copy)]
pub enum Named {
    /// VARCHAR.
    Text,
    /// BOOLEAN.
    Boolean,
}

/// The arguments of one call: the first, and the named ones given.
pub struct Args {
    /// The first argument; `None` for NULL.
    pub first: Option<String>,
    /// Each named argument given, with its value (`None` for NULL).
    pub named: Vec<(&'static str, Option<Value>)>,
}

/// A named argument's value.
pub enum Value {
    /// A VARCHAR.
    Text(String),
    /// A BOOLEAN.
    Boolean(bool),
}

/// The columns a binding decides: each one's name and type.
pub type Columns = Vec<(String, Id)>;

/// One table function: `NAME(VARCHAR, name := value, ...)`.
pub trait TableFunction {
    /// Its SQL name.
    const NAME: &'static str;
    /// Its named arguments.
    const NAMED: &'static [(&'static str, Named)];
    /// What the binding decided: the columns' source, shared by the
    /// query's scans.
    type Bind: Send + Sync;
    /// One scan's state: where it is.
    type State: Send;
    /// The columns (name, type) and what the scans need, from the
    /// arguments.
    ///
    /// # Errors
    /// Arguments the function cannot take: the query's error.
    fn bind(args: Args) -> Result<(Columns, Self::Bind), String>;
    /// A scan's state.
    ///
    /// # Errors
    /// The source cannot be read: the query's error.
    fn init(bind: &Self::Bind) -> Result<Self::State, String>;
    /// Writes the next rows into `out` (at most `out.capacity()`), and
    /// returns how many; 0 at the end.
    ///
    /// # Errors
    /// The source failed while read: the query's error.
    fn fill(bind: &Self::Bind, state: &mut Self::State, out: &mut Chunk<'_>) -> Result<usize, String>;
}

/// The chunk a call writes its rows into.
pub struct Chunk<'a> {
    chunk: ffi::duckdb_data_chunk,
    capacity: usize,
    life: PhantomData<&'a ()>,
}

impl Chunk<'_> {
    /// How many rows one call may write.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The column at `index`, of the type the binding gave it.
    ///
    /// # Panics
    /// When the chunk has no column `index`.
    #[must_use]
    pub fn column(&self, index: usize) -> Column<'_> {
        // SAFETY: the output chunk of this call, live during it.
        let columns = unsafe { ffi::duckdb_data_chunk_get_column_count(self.chunk) } as usize;
        assert!(index < columns, "no column {index} of {columns}");
        // SAFETY: a column the chunk has (checked above), of the type the
        // binding gave it; `Column` checks each row against the capacity.
        let vector = unsafe { ffi::duckdb_data_chunk_get_vector(self.chunk, index as u64) };
        Column::new(vector, self.capacity)
    }
}

/// Registers `F` on `con`.
///
/// # Errors
/// When DuckDB refuses it.
pub fn register<F: TableFunction>(con: &Connection) -> Result<(), Box<dyn Error>> {
    let name = c_string(F::NAME);
    let text = LogicalType::of(Id::Varchar);
    let boolean = LogicalType::of(Id::Boolean);
    let names: Vec<_> = F::NAMED.iter().map(|(n, _)| c_string(n)).collect();
    // SAFETY: the new function is ours until destroyed below; DuckDB
    // copies the name, the parameters' names and their types.
    let state = unsafe {
        let mut f = ffi::duckdb_create_table_function();
        ffi::duckdb_table_function_set_name(f, name.as_ptr());
        ffi::duckdb_table_function_add_parameter(f, text.0);
        for ((_, ty), n) in F::NAMED.iter().zip(&names) {
            let ty = match ty {
                Named::Text => &text,
                Named::Boolean => &boolean,
            };
            ffi::duckdb_table_function_add_named_parameter(f, n.as_ptr(), ty.0);
        }
        ffi::duckdb_table_function_set_bind(f, Some(bind::<F>));
        ffi::duckdb_table_function_set_init(f, Some(init::<F>));
        ffi::duckdb_table_function_set_function(f, Some(scan::<F>));
        let state = ffi::duckdb_register_table_function(con.0, f);
        ffi::duckdb_destroy_table_function(&mut f);
        state
    };
    if state == ffi::DuckDBSuccess {
        Ok(())
    } else {
        Err(format!("DuckDB refused the table function {}", F::NAME).into())
    }
}

/// A panic's message.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// `f`'s answer, or its error or panic as `NAME: message`.
fn guarded<F: TableFunction, T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(why)) => Err(format!("{}: {why}", F::NAME)),
        Err(panic) => Err(format!("{}: {}", F::NAME, panic_text(&*panic))),
    }
}

/// Frees a `Box<T>` DuckDB held.
unsafe extern "C" fn drop_box<T>(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: `data` came from `Box::into_raw` of a `Box<T>` and
        // DuckDB calls this once, when done with it.
        drop(unsafe { Box::from_raw(data.cast::<T>()) });
    }
}

/// A VARCHAR or BOOLEAN value's contents; `None` for NULL. Destroys it.
///
/// # Safety
/// `value` is a value DuckDB handed over, ours to destroy.
unsafe fn take(mut value: ffi::duckdb_value, ty: Named) -> Option<Value> {
    // SAFETY: a live value (the caller's promise); `duckdb_get_varchar`
    // returns a string we free with `duckdb_free`; the value is
    // destroyed once, at the end.
    unsafe {
        let v = if ffi::duckdb_is_null_value(value) {
            None
        } else {
            Some(match ty {
                Named::Boolean => Value::Boolean(ffi::duckdb_get_bool(value)),
                Named::Text => {
                    let p = ffi::duckdb_get_varchar(value);
                    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
                    ffi::duckdb_free(p.cast());
                    Value::Text(s)
                }
            })
        };
        ffi::duckdb_destroy_value(&mut value);
        v
    }
}

/// What DuckDB calls to bind a query's call: the arguments read, the
/// columns added, the binding kept for the scans.
unsafe extern "C" fn bind<F: TableFunction>(info: ffi::duckdb_bind_info) {
    let done = guarded::<F, _>(|| {
        // SAFETY: `info` is this call's; a parameter DuckDB checked
        // against the signature (the first VARCHAR; named ones of their
        // types, a null pointer when not given).
        let args = unsafe {
            let first = match take(ffi::duckdb_bind_get_parameter(info, 0), Named::Text) {
                Some(Value::Text(t)) => Some(t),
                _ => None,
            };
            let mut named = Vec::new();
            for (name, ty) in F::NAMED {
                let n = c_string(name);
                let v = ffi::duckdb_bind_get_named_parameter(info, n.as_ptr());
                if !v.is_null() {
                    named.push((*name, take(v, *ty)));
                }
            }
            Args { first, named }
        };
        F::bind(args)
    });
    match done {
        Ok((columns, data)) => {
            for (name, id) in columns {
                let name = c_string(&name);
                let ty = LogicalType::of(id);
                // SAFETY: `info` is this call's; DuckDB copies both.
                unsafe { ffi::duckdb_bind_add_result_column(info, name.as_ptr(), ty.0) }
            }
            let data = Box::into_raw(Box::new(data));
            // SAFETY: DuckDB owns the box from here and frees it by
            // `drop_box` of the same type.
            unsafe { ffi::duckdb_bind_set_bind_data(info, data.cast(), Some(drop_box::<F::Bind>)) }
        }
        Err(why) => {
            let message = c_string(&why);
            // SAFETY: `info` is this call's; DuckDB copies the message.
            unsafe { ffi::duckdb_bind_set_error(info, message.as_ptr()) }
        }
    }
}

/// What DuckDB calls to start a scan.
unsafe extern "C" fn init<F: TableFunction>(info: ffi::duckdb_init_info) {
    // SAFETY: the binding `bind` set, alive while the query runs.
    let data = unsafe { &*ffi::duckdb_init_get_bind_data(info).cast::<F::Bind>() };
    match guarded::<F, _>(|| F::init(data)) {
        Ok(state) => {
            let state = Box::into_raw(Box::new(state));
            // SAFETY: DuckDB owns the box from here and frees it by
            // `drop_box` of the same type; one thread scans (the
            // default of a C API table function).
            unsafe { ffi::duckdb_init_set_init_data(info, state.cast(), Some(drop_box::<F::State>)) }
        }
        Err(why) => {
            let message = c_string(&why);
            // SAFETY: `info` is this call's; DuckDB copies the message.
            unsafe { ffi::duckdb_init_set_error(info, message.as_ptr()) }
        }
    }
}

/// What DuckDB calls for each chunk of rows; 0 rows end the scan.
unsafe extern "C" fn scan<F: TableFunction>(info: ffi::duckdb_function_info, output: ffi::duckdb_data_chunk) {
    // SAFETY: the binding and the state `bind` and `init` set; one
    // thread scans, so the state is ours alone during this call.
    let (data, state) = unsafe {
        (
            &*ffi::duckdb_function_get_bind_data(info).cast::<F::Bind>(),
            &mut *ffi::duckdb_function_get_init_data(info).cast::<F::State>(),
        )
    };
    // SAFETY: a plain query of DuckDB's vector size.
    let capacity = unsafe { ffi::duckdb_vector_size() } as usize;
    let mut chunk = Chunk { chunk: output, capacity, life: PhantomData };
    match guarded::<F, _>(|| F::fill(data, state, &mut chunk)) {
        // SAFETY: the rows `fill` wrote, within the capacity.
        Ok(rows) => unsafe { ffi::duckdb_data_chunk_set_size(output, rows.min(capacity) as u64) },
        Err(why) => {
            let message = c_string(&why);
            // SAFETY: `info` is this call's; DuckDB copies the message.
            unsafe { ffi::duckdb_function_set_error(info, message.as_ptr()) }
        }
    }
}
