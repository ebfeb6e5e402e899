//! The shape check of a WASM module, before it is compiled: counts and sizes the compiler's
//! time and memory grow with (functions, body sizes, locals, imports, tables, memories, …) are
//! read with a streaming parser and refused past fixed limits, so an upload cannot make the
//! host compile for a minute or take gigabytes. Validation proper stays wasmtime's.

use wasmparser::{Parser, Payload};

use crate::Fault;

/// One limit on the shape of a module: its name in messages and its largest accepted value.
struct Limit {
    what: &'static str,
    max: u64,
}

/// Functions (imported and defined).
const FUNCTIONS: Limit = Limit { what: "functions", max: 5_000 };
/// Bytes of one function body.
const BODY_BYTES: Limit = Limit { what: "bytes in one function body", max: 128 << 10 };
/// Bytes of all function bodies together.
const CODE_BYTES: Limit = Limit { what: "bytes of code (all function bodies)", max: 1 << 20 };
/// Locals declared by one function (its parameters not included).
const LOCALS: Limit = Limit { what: "locals in one function", max: 1_000 };
/// Imports (only `env.log` and `env.budget_left` exist).
const IMPORTS: Limit = Limit { what: "imports", max: 8 };
/// Tables, imported or defined.
const TABLES: Limit = Limit { what: "tables", max: 1 };
/// Initial elements of a table (the same cap as its growth, see `wasm.rs`).
/// Most elements a table may have, at load and when it grows (the store's limiter).
pub(crate) const MAX_TABLE_ELEMENTS: usize = 10_000;
const TABLE_ELEMENTS: Limit = Limit { what: "initial table elements", max: MAX_TABLE_ELEMENTS as u64 };
/// Memories, imported or defined.
const MEMORIES: Limit = Limit { what: "memories", max: 1 };
/// Globals.
const GLOBALS: Limit = Limit { what: "globals", max: 1_000 };
/// Type definitions.
const TYPES: Limit = Limit { what: "types", max: 10_000 };
/// Exports.
const EXPORTS: Limit = Limit { what: "exports", max: 1_000 };
/// Data segments. Compiling costs memory per segment (wasmtime lays out the memory's
/// initialization by pages), far more than the segment's bytes; compilers emit a handful.
const DATA_SEGMENTS: Limit = Limit { what: "data segments", max: 100 };
/// Element segments.
const ELEMENT_SEGMENTS: Limit = Limit { what: "element segments", max: 1_000 };

/// The limits as `(what, max)`, for the docs test.
#[cfg(test)]
const ALL: [&Limit; 13] = [
    &FUNCTIONS,
    &BODY_BYTES,
    &CODE_BYTES,
    &LOCALS,
    &IMPORTS,
    &TABLES,
    &TABLE_ELEMENTS,
    &MEMORIES,
    &GLOBALS,
    &TYPES,
    &EXPORTS,
    &DATA_SEGMENTS,
    &ELEMENT_SEGMENTS,
];

fn within(limit: &Limit, value: u64) -> Result<(), Fault> {
    if value > limit.max {
        return Err(Fault::load(format!(
            "the module has {value} {}; the limit is {} (see `arena docs sandbox`, \"WASM module limits\")",
            limit.what, limit.max
        )));
    }
    Ok(())
}

/// Checks a binary module's shape against the limits. A module the parser cannot read is left
/// to wasmtime, whose message says what is malformed.
pub(crate) fn check(wasm: &[u8]) -> Result<(), Fault> {
    let (mut functions, mut tables, mut memories, mut code) = (0u64, 0u64, 0u64, 0u64);
    for payload in Parser::new(0).parse_all(wasm) {
        let Ok(payload) = payload else { return Ok(()) };
        match payload {
            Payload::TypeSection(r) => within(&TYPES, r.count().into())?,
            Payload::ImportSection(r) => {
                let mut imports = 0;
                for import in r.into_imports() {
                    let Ok(import) = import else { return Ok(()) };
                    imports += 1;
                    within(&IMPORTS, imports)?;
                    match import.ty {
                        wasmparser::TypeRef::Func(_) => functions += 1,
                        wasmparser::TypeRef::Table(t) => {
                            tables += 1;
                            within(&TABLE_ELEMENTS, t.initial)?;
                        }
                        wasmparser::TypeRef::Memory(_) => memories += 1,
                        _ => {}
                    }
                }
            }
            Payload::FunctionSection(r) => {
                functions += u64::from(r.count());
                within(&FUNCTIONS, functions)?;
            }
            Payload::TableSection(r) => {
                tables += u64::from(r.count());
                within(&TABLES, tables)?;
                for table in r {
                    let Ok(table) = table else { return Ok(()) };
                    within(&TABLE_ELEMENTS, table.ty.initial)?;
                }
            }
            Payload::MemorySection(r) => memories += u64::from(r.count()),
            Payload::GlobalSection(r) => within(&GLOBALS, r.count().into())?,
            Payload::ExportSection(r) => within(&EXPORTS, r.count().into())?,
            Payload::DataSection(r) => within(&DATA_SEGMENTS, r.count().into())?,
            Payload::ElementSection(r) => within(&ELEMENT_SEGMENTS, r.count().into())?,
            Payload::CodeSectionStart { size, .. } => within(&CODE_BYTES, size.into())?,
            Payload::CodeSectionEntry(body) => {
                let bytes = body.range().len() as u64;
                within(&BODY_BYTES, bytes)?;
                code += bytes;
                within(&CODE_BYTES, code)?;
                let Ok(mut locals) = body.get_locals_reader() else { return Ok(()) };
                let mut declared = 0u64;
                for _ in 0..locals.get_count() {
                    let Ok((n, _)) = locals.read() else { return Ok(()) };
                    declared += u64::from(n);
                    within(&LOCALS, declared)?;
                }
            }
            _ => {}
        }
    }
    within(&FUNCTIONS, functions)?;
    within(&TABLES, tables)?;
    within(&MEMORIES, memories)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wat(text: &str) -> Vec<u8> {
        wat::parse_str(text).unwrap()
    }

    #[test]
    fn refusals_name_the_limit_and_the_value() {
        let two_tables = wat("(module (table 1 funcref) (table 1 funcref))");
        let msg = check(&two_tables).unwrap_err().message;
        assert!(msg.contains("2 tables; the limit is 1"), "{msg}");
        let locals = wat(&format!("(module (func (local {})))", "i64 ".repeat(1001)));
        let msg = check(&locals).unwrap_err().message;
        assert!(msg.contains("1001 locals in one function; the limit is 1000"), "{msg}");
        let funcs = wat(&format!("(module {})", "(func)".repeat(5_001)));
        let msg = check(&funcs).unwrap_err().message;
        assert!(msg.contains("5001 functions; the limit is 5000"), "{msg}");
        let table = wat("(module (table 10001 funcref))");
        assert!(check(&table).unwrap_err().message.contains("10001 initial table elements"));
        let data = wat(&format!("(module (memory 1) {})", "(data (i32.const 0) \"x\")".repeat(101)));
        assert!(check(&data).unwrap_err().message.contains("101 data segments; the limit is 100"));
        let memories = wat("(module (import \"env\" \"m\" (memory 1)) (memory 1))");
        assert!(check(&memories).unwrap_err().message.contains("2 memories; the limit is 1"));
    }

    #[test]
    fn at_the_limits_is_accepted() {
        let text = format!(
            "(module (table 10000 funcref) (memory 1) (func (local {})) {} {})",
            "i64 ".repeat(1000),
            "(func)".repeat(4_999),
            "(data (i32.const 0) \"x\")".repeat(100)
        );
        check(&wat(&text)).unwrap();
    }

    #[test]
    fn the_limits_are_documented() {
        let doc = include_str!("../../docs/sandbox.md");
        for limit in ALL {
            let row = format!("| {} | {} |", limit.what, limit.max);
            assert!(doc.contains(&row), "docs/sandbox.md lacks the row `{row}`");
        }
    }
}
