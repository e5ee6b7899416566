//! `rfc1738_log(path, format := 'combined', lenient := false)`: a web
//! server's log file, plain or compressed (gzip, zstd, bzip2, xz, told by
//! its first bytes, as the command tells them), as a table: a row per
//! line that is not empty, a typed column per field, each row what
//! `rfc1738 check --json` says of its line. The columns are
//! `rfc1738_report::logtable`'s, the format's other fields (`%D`,
//! `$request_time`) after the fixed ones.
//!
//! ```sql
//! SELECT client, count(*) FROM rfc1738_log('access.log.gz')
//! WHERE NOT valid GROUP BY client;
//! ```
//!
//! `format` is `clf` (the command's default reading), a preset
//! (`combined`, `common`, `vhost_combined`, `main`; `apache`, `nginx`) or
//! a format string, as `--log-format` takes it; `lenient` as
//! `--lenient`. A file that cannot be read, a format refused, a
//! compressed file cut short: the query's error, with the path.

use crate::table::{Args, Chunk, Columns, Named, TableFunction, Value};
use crate::vector::Id;
use rfc1738_report::logtable::read::{Batch, LogLines};
use rfc1738_report::logtable::{Cell, LogTable, Type};
use std::path::Path;

/// The table function.
pub struct Log;

/// A call bound: the file and how its lines are read.
pub struct Bound {
    path: String,
    table: LogTable,
}

/// A scan: the lines still to read.
pub struct Scan {
    lines: LogLines,
    batch: Batch,
}

/// The file's lines, or the error the query gives.
fn open(path: &str) -> Result<LogLines, String> {
    LogLines::open(Path::new(path)).map_err(|e| format!("cannot read {path:?}: {e}"))
}

impl TableFunction for Log {
    const NAME: &'static str = "rfc1738_log";
    const NAMED: &'static [(&'static str, Named)] = &[("format", Named::Text), ("lenient", Named::Boolean)];
    type Bind = Bound;
    type State = Scan;

    fn bind(args: Args) -> Result<(Columns, Bound), String> {
        let path = args.first.ok_or("the path is NULL")?;
        let mut format = "combined".to_string();
        let mut lenient = false;
        for (name, value) in args.named {
            match (name, value) {
                ("format", Some(Value::Text(f))) => format = f,
                ("lenient", Some(Value::Boolean(b))) => lenient = b,
                (name, None) => return Err(format!("{name} is NULL")),
                (name, _) => return Err(format!("{name} has the wrong type")),
            }
        }
        let table = LogTable::new(&format, lenient).map_err(|e| format!("format {format:?}: {e}"))?;
        // A missing file fails the query when it is bound, before a row.
        drop(open(&path)?);
        let columns = table
            .columns()
            .iter()
            .map(|c| {
                let id = match c.ty {
                    Type::Text => Id::Varchar,
                    Type::Integer => Id::Integer,
                    Type::Bigint => Id::Bigint,
                    Type::Double => Id::Double,
                    Type::Boolean => Id::Boolean,
                    Type::TimestampTz => Id::TimestampTz,
                };
                (c.name.clone(), id)
            })
            .collect();
        Ok((columns, Bound { path, table }))
    }

    fn init(bind: &Bound) -> Result<Scan, String> {
        Ok(Scan { lines: open(&bind.path)?, batch: Batch::default() })
    }

    fn fill(bind: &Bound, scan: &mut Scan, out: &mut Chunk<'_>) -> Result<usize, String> {
        scan.lines.next_batch(out.capacity(), &mut scan.batch).map_err(|e| format!("{}: {e}", bind.path))?;
        let lines = scan.batch.lines();
        let types: Vec<Type> = bind.table.columns().iter().map(|c| c.ty).collect();
        let mut columns: Vec<_> = (0..types.len()).map(|k| out.column(k)).collect();
        let mut row = 0;
        bind.table.rows_of(&bind.path, &lines, |cells| {
            for ((column, ty), cell) in columns.iter_mut().zip(&types).zip(cells) {
                match (cell, ty) {
                    (Cell::Null, _) => column.text(row, None),
                    (Cell::Text(t), _) => column.text(row, Some(&t)),
                    (Cell::Int(n), Type::Integer) => {
                        column.value(row, Some(i32::try_from(n).unwrap_or(i32::MAX)))
                    }
                    (Cell::Int(n) | Cell::Micros(n), _) => column.value(row, Some(n)),
                    (Cell::Float(n), _) => column.value(row, Some(n)),
                    (Cell::Bool(b), _) => column.value(row, Some(b)),
                }
            }
            row += 1;
        });
        Ok(row)
    }
}
