//! A log file as a table (`rfc1738.clf.read_log`, and through it
//! `rfc1738.duckdb.read_log`, `rfc1738.polars.read_log`,
//! `rfc1738.datafusion.read_log`): the rows and columns of the DuckDB
//! extension's `rfc1738_log`, from the same `rfc1738_report::logtable`,
//! as one Arrow struct column a table is made of. The file is read in
//! Rust, compressed or not, without the lock.

use crate::arrow::to_pyarrow;
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, StructArray};
use arrow_schema::{DataType, Field, TimeUnit};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use rfc1738_report::logtable::read::{Batch, LogLines};
use rfc1738_report::logtable::{Cell, LogTable, Type};
use std::path::PathBuf;
use std::sync::Arc;

/// One column being built.
pub(crate) enum Builder {
    Text(StringBuilder),
    Integer(Int32Builder),
    Bigint(Int64Builder),
    Double(Float64Builder),
    Boolean(BooleanBuilder),
    Time(TimestampMicrosecondBuilder),
}

impl Builder {
    pub(crate) fn new(ty: Type) -> Builder {
        match ty {
            Type::Text => Builder::Text(StringBuilder::new()),
            Type::Integer => Builder::Integer(Int32Builder::new()),
            Type::Bigint => Builder::Bigint(Int64Builder::new()),
            Type::Double => Builder::Double(Float64Builder::new()),
            Type::Boolean => Builder::Boolean(BooleanBuilder::new()),
            Type::TimestampTz => Builder::Time(TimestampMicrosecondBuilder::new().with_timezone("UTC")),
        }
    }

    /// Appends a cell; a cell of another type than the column's (none
    /// is made so) is a null.
    pub(crate) fn push(&mut self, cell: Cell<'_>) {
        match (self, cell) {
            (Builder::Text(b), Cell::Text(t)) => b.append_value(t),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Integer(b), Cell::Int(n)) => b.append_option(i32::try_from(n).ok()),
            (Builder::Integer(b), _) => b.append_null(),
            (Builder::Bigint(b), Cell::Int(n)) => b.append_value(n),
            (Builder::Bigint(b), _) => b.append_null(),
            (Builder::Double(b), Cell::Float(n)) => b.append_value(n),
            (Builder::Double(b), _) => b.append_null(),
            (Builder::Boolean(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::Boolean(b), _) => b.append_null(),
            (Builder::Time(b), Cell::Micros(n)) => b.append_value(n),
            (Builder::Time(b), _) => b.append_null(),
        }
    }

    pub(crate) fn finish(self) -> (DataType, ArrayRef) {
        match self {
            Builder::Text(mut b) => (DataType::Utf8, Arc::new(b.finish())),
            Builder::Integer(mut b) => (DataType::Int32, Arc::new(b.finish())),
            Builder::Bigint(mut b) => (DataType::Int64, Arc::new(b.finish())),
            Builder::Double(mut b) => (DataType::Float64, Arc::new(b.finish())),
            Builder::Boolean(mut b) => (DataType::Boolean, Arc::new(b.finish())),
            Builder::Time(mut b) => {
                (DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())), Arc::new(b.finish()))
            }
        }
    }
}

/// The rows of the log file at ``path`` as one struct column, a field
/// per column of ``rfc1738_log``. ``log_format``: ``clf``, a preset or a
/// format string (a ``ValueError`` names what is refused); ``lenient``
/// as ``--lenient``. A file that cannot be read, or a compressed one
/// that stops short, is an ``OSError`` naming it.
#[pyfunction]
#[pyo3(signature = (path, log_format="combined", lenient=false))]
fn log_table(py: Python<'_>, path: PathBuf, log_format: &str, lenient: bool) -> PyResult<Py<PyAny>> {
    let table = LogTable::new(log_format, lenient)
        .map_err(|e| PyValueError::new_err(format!("log_format {log_format:?}: {e}")))?;
    let name = path.to_string_lossy().into_owned();
    let read = py.detach(|| -> Result<StructArray, String> {
        let mut lines = LogLines::open(&path).map_err(|e| format!("cannot read {name:?}: {e}"))?;
        let mut builders: Vec<Builder> = table.columns().iter().map(|c| Builder::new(c.ty)).collect();
        let mut batch = Batch::default();
        loop {
            lines.next_batch(4096, &mut batch).map_err(|e| format!("{name}: {e}"))?;
            if batch.is_empty() {
                break;
            }
            table.rows_of(&name, &batch.lines(), |cells| {
                builders.iter_mut().zip(cells).for_each(|(b, c)| b.push(c));
            });
        }
        let (fields, columns): (Vec<Field>, Vec<ArrayRef>) = table
            .columns()
            .iter()
            .zip(builders)
            .map(|(c, b)| {
                let (ty, array) = b.finish();
                (Field::new(c.name.as_str(), ty, true), array)
            })
            .unzip();
        StructArray::try_new(fields.into(), columns, None).map_err(|e| e.to_string())
    });
    let array = read.map_err(PyOSError::new_err)?;
    Ok(to_pyarrow(py, Arc::new(array))?.unbind())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(log_table, m)?)
}
