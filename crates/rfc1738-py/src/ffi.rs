//! Arrow columns in and out through the Arrow PyCapsule interface: the C
//! data interface (`__arrow_c_array__`: a schema and an array) and the C
//! stream interface (`__arrow_c_stream__`: a schema, then arrays).
//!
//! This is the crate's one module with `unsafe` code: a capsule hands over
//! a pointer to a C struct, which is moved out of it (the producer's
//! `release` callback then belongs to us, and the capsule's destructor sees
//! it released), or read in place for a schema. Every other module sees
//! only `ArrayRef`s. Results go out the safe way: each C struct is boxed in
//! a capsule that releases it when dropped, unless a consumer moved it out.
//!
//! Every column is checked before a kernel reads it ([`layout`]): the
//! kernels slice values by its offsets and views, and index its
//! dictionary by its keys, without checking each again.

#![allow(unsafe_code)]

use arrow_array::ffi::{from_ffi_and_data_type, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{make_array, Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use std::ffi::CStr;

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";
const STREAM: &CStr = c"arrow_array_stream";

/// A column as it came: one array (`__arrow_c_array__`), or the chunks
/// of a stream and their type (`__arrow_c_stream__`).
pub enum Column {
    Array(ArrayRef),
    Chunks(Vec<ArrayRef>, DataType),
}

/// Reads `obj` as an Arrow column: anything with `__arrow_c_array__` or
/// `__arrow_c_stream__`. A struct with one field (a record batch, a
/// one-column table or query result) is that field.
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<Column> {
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method0("__arrow_c_array__")?;
        let pair = pair.cast::<PyTuple>()?;
        let schema = pair.get_item(0)?;
        let array = pair.get_item(1)?;
        let (data_type, array) = import_array(schema.cast::<PyCapsule>()?, array.cast::<PyCapsule>()?)?;
        let (array, _) = one_column(array, &data_type)?;
        layout::check(array.as_ref()).map_err(PyValueError::new_err)?;
        return Ok(Column::Array(array));
    }
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method0("__arrow_c_stream__")?;
        let (chunks, data_type) = import_stream(capsule.cast::<PyCapsule>()?)?;
        let mut out = Vec::with_capacity(chunks.len());
        let mut column_type = one_column_type(&data_type)?;
        for (n, chunk) in chunks.into_iter().enumerate() {
            let (array, t) = one_column(chunk, &data_type)?;
            layout::check(array.as_ref()).map_err(|e| PyValueError::new_err(format!("chunk {n}: {e}")))?;
            column_type = t;
            out.push(array);
        }
        return Ok(Column::Chunks(out, column_type));
    }
    Err(PyTypeError::new_err(format!(
        "expected an Arrow column (a pyarrow array, chunked array or one-column table, a Polars Series, a \
         DuckDB relation: anything with __arrow_c_array__ or __arrow_c_stream__), not {}",
        obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
    )))
}

/// The type of the one column of a stream of `data_type`.
fn one_column_type(data_type: &DataType) -> PyResult<DataType> {
    match data_type {
        DataType::Struct(fields) if fields.len() == 1 => Ok(fields[0].data_type().clone()),
        DataType::Struct(fields) => Err(PyTypeError::new_err(format!(
            "a table of {} columns: pass one column (table.column(name), relation.select(name))",
            fields.len()
        ))),
        other => Ok(other.clone()),
    }
}

/// A struct of one field as that field; any other array as it is.
fn one_column(array: ArrayRef, data_type: &DataType) -> PyResult<(ArrayRef, DataType)> {
    let column_type = one_column_type(data_type)?;
    if let DataType::Struct(_) = data_type {
        let s = array.as_any().downcast_ref::<arrow_array::StructArray>().expect("a struct type");
        if s.null_count() > 0 {
            return Err(PyTypeError::new_err("a struct column with null rows: pass its field"));
        }
        return Ok((s.column(0).clone(), column_type));
    }
    Ok((array, column_type))
}

fn import_array(
    schema: &Bound<'_, PyCapsule>,
    array: &Bound<'_, PyCapsule>,
) -> PyResult<(DataType, ArrayRef)> {
    let schema_ptr = schema.pointer_checked(Some(SCHEMA))?.cast::<FFI_ArrowSchema>();
    let array_ptr = array.pointer_checked(Some(ARRAY))?.cast::<FFI_ArrowArray>();
    // SAFETY: a capsule named "arrow_schema" holds a valid ArrowSchema
    // (the PyCapsule interface); it stays owned by the capsule, which
    // outlives this borrow.
    let schema = unsafe { schema_ptr.as_ref() };
    let data_type = DataType::try_from(schema).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // SAFETY: a capsule named "arrow_array" holds a valid ArrowArray; it is
    // moved out and an empty (released) one left, as the C data interface
    // says a consumer moves an array. The capsule's destructor then sees
    // it released.
    let array = unsafe { FFI_ArrowArray::from_raw(array_ptr.as_ptr()) };
    let data = data(array, &data_type)?;
    Ok((data_type, data))
}

/// An array of `data_type` from its C struct, checked.
fn data(array: FFI_ArrowArray, data_type: &DataType) -> PyResult<ArrayRef> {
    if array.is_empty() {
        // An empty slice of a longer array keeps its offset, and arrow-rs
        // then sizes the value buffer from the wrong end of the offsets;
        // an empty array of the type is the same column. Dropping the C
        // struct releases it.
        return Ok(arrow_array::new_empty_array(data_type));
    }
    // SAFETY: `array` is a valid, unreleased ArrowArray whose type is
    // `data_type` (its producer gave both); `from_ffi_and_data_type` takes
    // ownership and releases it when the data is dropped.
    let data = unsafe { from_ffi_and_data_type(array, data_type.clone()) }
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // The buffers' sizes (null bits, offsets, views, for the length and
    // offset the array states), and its first and last offsets. The
    // offsets between, the views and the keys are `layout::check`'s, on
    // the column `import` gives. Not each value's UTF-8: the C data
    // interface makes it the producer's promise.
    data.validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(make_array(data))
}

/// The layout of a column checked before any kernel reads it: the checks
/// of the Arrow columnar format that `ArrayData::validate` leaves to
/// `validate_full`, without the UTF-8 check of every value that
/// `validate_full` adds. One pass over the offsets, views or keys; no
/// copy; the values' bytes unread.
///
/// ```text
///  offsets  0       8        17   each one >= the one before,
///           |       |        |    each one <= the data's length
///  data     ftp://a/http://b/     row i: offsets[i]..offsets[i + 1]
///           (offsets 0 8 8 17: rows ftp://a/, "", http://b/)
///
///  view     len | prefix or text | buffer | offset
///           4   | 4 (12 inline)  | 4      | 4      bytes
///           len <= 12: the text is in the view;
///           else buffer < the data buffers, offset + len <= its length
/// ```
mod layout {
    #![forbid(unsafe_code)]

    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        ArrowDictionaryKeyType, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type,
        UInt64Type, UInt8Type,
    };
    use arrow_array::{Array, OffsetSizeTrait};
    use arrow_buffer::{ArrowNativeType, Buffer, NullBuffer};
    use arrow_data::ByteView;
    use arrow_schema::DataType;

    /// The longest value a view holds in itself (Arrow's columnar format).
    const MAX_INLINE: u32 = 12;

    /// Checks that every row of `a` lies in its buffers. The buffers'
    /// sizes for its length and offset were checked on import
    /// (`ArrayData::validate`); this checks what they hold.
    ///
    /// # Errors
    ///
    /// What is out of place, and where: the offset, the view or the
    /// dictionary key, counted from the column's first row.
    pub fn check(a: &dyn Array) -> Result<(), String> {
        match a.data_type() {
            DataType::Utf8 => {
                let s = a.as_string::<i32>();
                offsets(s.value_offsets(), s.values().len())
            }
            DataType::LargeUtf8 => {
                let s = a.as_string::<i64>();
                offsets(s.value_offsets(), s.values().len())
            }
            DataType::Binary => {
                let b = a.as_binary::<i32>();
                offsets(b.value_offsets(), b.values().len())
            }
            DataType::LargeBinary => {
                let b = a.as_binary::<i64>();
                offsets(b.value_offsets(), b.values().len())
            }
            DataType::Utf8View => {
                let s = a.as_string_view();
                views(s.views(), s.data_buffers(), a.nulls())
            }
            DataType::BinaryView => {
                let b = a.as_binary_view();
                views(b.views(), b.data_buffers(), a.nulls())
            }
            DataType::Dictionary(key, _) => match key.as_ref() {
                DataType::Int8 => keys::<Int8Type>(a),
                DataType::Int16 => keys::<Int16Type>(a),
                DataType::Int32 => keys::<Int32Type>(a),
                DataType::Int64 => keys::<Int64Type>(a),
                DataType::UInt8 => keys::<UInt8Type>(a),
                DataType::UInt16 => keys::<UInt16Type>(a),
                DataType::UInt32 => keys::<UInt32Type>(a),
                DataType::UInt64 => keys::<UInt64Type>(a),
                other => Err(format!("a dictionary whose keys are {other}, which is not an integer type")),
            },
            // A type no kernel reads (the kernels refuse it by name), or
            // one without values (`Null`).
            _ => Ok(()),
        }
    }

    /// The `len + 1` offsets of a column of offsets: from the first on,
    /// none less than the one before, none past `data` bytes. Every
    /// offset is read, a null row's too (the format asks it of them all).
    fn offsets<O: OffsetSizeTrait>(offsets: &[O], data: usize) -> Result<(), String> {
        let mut before = 0;
        for (i, o) in offsets.iter().enumerate() {
            // i32 and i64 are both read as an i64.
            let o = o.to_i64().unwrap_or(i64::MAX);
            if o < 0 {
                return Err(format!("malformed Arrow column: offset {i} is {o}, negative"));
            }
            if o as u64 > data as u64 {
                return Err(format!(
                    "malformed Arrow column: offset {i} is {o}, past the {data} bytes of the column's data{}",
                    row_of(i, offsets.len())
                ));
            }
            if i > 0 && o < before {
                return Err(format!(
                    "malformed Arrow column: offset {i} is {o}, less than offset {} ({before}): offsets never \
                     decrease{}",
                    i - 1,
                    row_of(i, offsets.len())
                ));
            }
            before = o;
        }
        Ok(())
    }

    /// Which row offset `i` of `n` ends (and which it starts).
    fn row_of(i: usize, n: usize) -> String {
        match i {
            0 => " (the start of row 0)".into(),
            _ if i + 1 == n => format!(" (the end of row {})", i - 1),
            _ => format!(" (the end of row {} and the start of row {i})", i - 1),
        }
    }

    /// Every view of a row that is not null: held in itself (12 bytes or
    /// fewer), or within the data buffer it names. A null row's view is
    /// not read by any kernel, and the format leaves it undefined.
    fn views(views: &[u128], buffers: &[Buffer], nulls: Option<&NullBuffer>) -> Result<(), String> {
        for (i, &raw) in views.iter().enumerate() {
            let len = raw as u32;
            if len <= MAX_INLINE || nulls.is_some_and(|n| n.is_null(i)) {
                continue;
            }
            let view = ByteView::from(raw);
            let Some(buffer) = buffers.get(view.buffer_index as usize) else {
                return Err(format!(
                    "malformed Arrow column: view {i} (row {i}) names data buffer {}, and the column has {}",
                    view.buffer_index,
                    match buffers.len() {
                        0 => "none".to_string(),
                        1 => "one (buffer 0)".to_string(),
                        n => format!("{n} (buffers 0 to {})", n - 1),
                    }
                ));
            };
            let end = u64::from(view.offset) + u64::from(len);
            if end > buffer.len() as u64 {
                return Err(format!(
                    "malformed Arrow column: view {i} (row {i}) is bytes {}..{end} of data buffer {}, which holds {} \
                     bytes",
                    view.offset,
                    view.buffer_index,
                    buffer.len()
                ));
            }
        }
        Ok(())
    }

    /// The dictionary's values, then each key of a row that is not null:
    /// an index of one of them.
    fn keys<K: ArrowDictionaryKeyType>(a: &dyn Array) -> Result<(), String> {
        let dict = a.as_dictionary::<K>();
        let values = dict.values();
        check(values.as_ref()).map_err(|e| format!("the dictionary's values: {e}"))?;
        let keys = dict.keys();
        let n = values.len();
        for (i, k) in keys.values().iter().enumerate() {
            if keys.is_null(i) {
                continue;
            }
            if k.to_usize().is_none_or(|k| k >= n) {
                return Err(format!(
                    "malformed Arrow column: dictionary key {k:?} at row {i} is not an index of the dictionary's {n} \
                     values{}",
                    match n {
                        0 => String::new(),
                        _ => format!(" (0 to {})", n - 1),
                    }
                ));
            }
        }
        Ok(())
    }
}

fn import_stream(capsule: &Bound<'_, PyCapsule>) -> PyResult<(Vec<ArrayRef>, DataType)> {
    let ptr = capsule.pointer_checked(Some(STREAM))?.cast::<FFI_ArrowArrayStream>();
    // SAFETY: a capsule named "arrow_array_stream" holds a valid
    // ArrowArrayStream; it is moved out, an empty one left behind (the C
    // stream interface's move). Dropping `stream` releases it.
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.as_ptr()) };
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(PyValueError::new_err("an Arrow stream already released"));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: `stream` is a live stream and `schema` a place for the callee
    // to write an ArrowSchema into (the C stream interface's get_schema).
    let code = unsafe { get_schema(&mut stream, &mut schema) };
    if code != 0 {
        return Err(stream_error(&mut stream, code));
    }
    let data_type = DataType::try_from(&schema).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut chunks = Vec::new();
    loop {
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: as for get_schema: `array` receives the next ArrowArray,
        // or a released one at the end of the stream.
        let code = unsafe { get_next(&mut stream, &mut array) };
        if code != 0 {
            return Err(stream_error(&mut stream, code));
        }
        if array.is_released() {
            break;
        }
        chunks.push(data(array, &data_type)?);
    }
    Ok((chunks, data_type))
}

fn stream_error(stream: &mut FFI_ArrowArrayStream, code: i32) -> PyErr {
    let why = stream.get_last_error.and_then(|f| {
        // SAFETY: get_last_error of a live stream returns null or a
        // NUL-terminated string valid until the next call on the stream.
        let p = unsafe { f(stream) };
        // SAFETY: checked non-null; NUL-terminated as above.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    });
    PyValueError::new_err(format!(
        "the Arrow stream failed (error {code}): {}",
        why.unwrap_or_else(|| "no message".into())
    ))
}

/// The capsules of `array`: `(schema, array)`, as `__arrow_c_array__`
/// returns them.
pub fn export<'py>(
    py: Python<'py>,
    array: &dyn Array,
) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
    let (array, schema) = to_ffi(&array.to_data()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let schema = PyCapsule::new_with_value(py, schema, SCHEMA)?;
    let array = PyCapsule::new_with_value(py, array, ARRAY)?;
    Ok((schema, array))
}

/// A string-view column from views that the caller made from text in
/// bounds: each view of more than 12 bytes points into `buffers` at text
/// that is UTF-8 (a slice of a valid URL, which is ASCII, §5, or text
/// copied from a `str`), each shorter one holds UTF-8 text.
pub fn string_views(
    views: arrow_buffer::ScalarBuffer<u128>,
    buffers: Vec<arrow_buffer::Buffer>,
    nulls: Option<arrow_buffer::NullBuffer>,
) -> arrow_array::StringViewArray {
    // SAFETY: `try_new` would not fail: the views were made by
    // `make_view` from slices of these buffers (or held in themselves),
    // each UTF-8, as the caller states; `nulls`, when given, has one bit
    // per view.
    unsafe { arrow_array::StringViewArray::new_unchecked(views, buffers, nulls) }
}

/// A string column whose values are texts laid end to end, `ends` (from
/// 0, never decreasing) at the boundaries between them: the caller wrote
/// `values` a `str` at a time and an end after each, so each value is
/// UTF-8 and `try_new`'s check of every offset would not fail.
pub fn strings(
    ends: arrow_buffer::ScalarBuffer<i32>,
    values: arrow_buffer::Buffer,
    nulls: Option<arrow_buffer::NullBuffer>,
) -> arrow_array::StringArray {
    debug_assert!(ends.first() == Some(&0) && ends.windows(2).all(|w| w[0] <= w[1]));
    debug_assert!(ends.last().is_some_and(|&e| e as usize == values.len()));
    // SAFETY: as the caller states, the offsets start at 0, never
    // decrease, end at the values' length, and fall between the `str`s
    // written, so each value is UTF-8; `nulls`, when given, has one bit a
    // value.
    unsafe {
        arrow_array::StringArray::new_unchecked(
            arrow_buffer::OffsetBuffer::new_unchecked(ends),
            values,
            nulls,
        )
    }
}
