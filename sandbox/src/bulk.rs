//! Bounds before fuel for the bulk operations of WASM (`memory.fill`, `memory.copy`,
//! `memory.init`, `table.fill`, `table.copy`, `table.init`).
//!
//! wasmtime 48 charges such an operation its length (1 per byte or element) and checks the
//! fuel *before* it checks the range: a `memory.fill` of 2^31 bytes past the end of memory ran
//! out of fuel (`fuel`) instead of trapping as the out-of-bounds access it is (`crash`). So at
//! load, before compiling, each such operation whose length is not a small constant gets a call
//! to a host check in front of it: the check gets the operands (and the memory's or table's
//! size, and the segment's length), traps as the engine would if the range is out of bounds,
//! and otherwise gives back the fuel of the instructions added (`memory.size`/`table.size`,
//! `i32.const`, `call`), so a valid operation costs exactly what it did. The module gains
//! imports from [`MODULE`], a name no bot may import itself (a bot calling a check would get
//! its refund for nothing).
//!
//! A length that is a constant of at most 128 is left alone: wasmtime charges it without a
//! fuel check of its own, so the bounds check comes first there. A module without other bulk
//! operations is compiled as it was uploaded.
//!
//! Segments: an active or declared segment counts as empty (the engine drops it at
//! instantiation). A passive segment counts with its length even after `data.drop` /
//! `elem.drop` (not tracked): an operation on a dropped segment whose length is at most the
//! segment's is charged before the engine's check, as before.

use std::borrow::Cow;

use wasm_encoder::reencode::{self, Reencode};
use wasm_encoder::{CodeSection, EntityType, ImportSection, Instruction, SectionId, TypeSection, ValType};
use wasmparser::{
    DataKind, ElementItems, ElementKind, FunctionBody, Operator, Parser, Payload, RefType, TypeRef,
};
use wasmtime::{Caller, Func, Linker, Trap};

use crate::Fault;

/// The module name of the checks' imports, reserved for the sandbox.
pub(crate) const MODULE: &str = "cardarena:bulk";

/// A length constant up to this is charged by wasmtime without a fuel check of its own
/// (`SMALL_BULK_OP_COST` in wasmtime-cranelift), so it needs no check here.
const SMALL_CONSTANT: i32 = 128;

/// One kind of check: its import name, its type (index into [`TYPES`]), and the instructions
/// added before the operation (their fuel is given back).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Check {
    MemoryFill,
    MemoryCopy,
    MemoryInit,
    TableFill,
    TableCopy,
    TableInit,
}

const CHECKS: [Check; 6] = [
    Check::MemoryFill,
    Check::MemoryCopy,
    Check::MemoryInit,
    Check::TableFill,
    Check::TableCopy,
    Check::TableInit,
];

impl Check {
    fn name(self) -> &'static str {
        match self {
            Check::MemoryFill => "memory_fill",
            Check::MemoryCopy => "memory_copy",
            Check::MemoryInit => "memory_init",
            Check::TableFill => "table_fill",
            Check::TableCopy => "table_copy",
            Check::TableInit => "table_init",
        }
    }

    /// Parameters and results: the three operands (the second a funcref for `table.fill`), the
    /// segment's length for `init`, and the memory's pages or the table's elements; the three
    /// operands come back.
    fn signature(self) -> (Vec<ValType>, Vec<ValType>) {
        let second = if self == Check::TableFill { ValType::FUNCREF } else { ValType::I32 };
        let operands = vec![ValType::I32, second, ValType::I32];
        let mut params = operands.clone();
        if matches!(self, Check::MemoryInit | Check::TableInit) {
            params.push(ValType::I32);
        }
        params.push(ValType::I32);
        (params, operands)
    }
}

/// What the first pass learns about a module.
#[derive(Default)]
struct Survey {
    imported_functions: u32,
    types: u32,
    has_imports: bool,
    /// Length of each data segment as `memory.init` sees it after instantiation.
    data: Vec<u32>,
    /// Length of each element segment, the same way.
    elements: Vec<u32>,
    /// The table holds `funcref`s (the only element type `table.fill` is checked for).
    funcref_table: bool,
    /// The checks the code uses.
    used: Vec<Check>,
}

/// The check an operator needs, if any (`small` tells that the previous operator pushed a
/// small constant, the length).
fn check_for(op: &Operator<'_>, small: bool, funcref_table: bool) -> Option<Check> {
    if small {
        return None;
    }
    match op {
        Operator::MemoryFill { .. } => Some(Check::MemoryFill),
        Operator::MemoryCopy { .. } => Some(Check::MemoryCopy),
        Operator::MemoryInit { .. } => Some(Check::MemoryInit),
        Operator::TableFill { .. } if funcref_table => Some(Check::TableFill),
        Operator::TableCopy { .. } => Some(Check::TableCopy),
        Operator::TableInit { .. } => Some(Check::TableInit),
        _ => None,
    }
}

fn is_small_constant(op: &Operator<'_>) -> bool {
    matches!(op, Operator::I32Const { value } if (0..=SMALL_CONSTANT).contains(value))
}

fn survey(wasm: &[u8]) -> Result<Survey, Fault> {
    let malformed =
        |e: wasmparser::BinaryReaderError| Fault::load(format!("malformed WebAssembly module: {e}"));
    let mut s = Survey::default();
    let mut bodies = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(malformed)? {
            Payload::TypeSection(r) => {
                for group in r {
                    s.types += group.map_err(malformed)?.types().len() as u32;
                }
            }
            Payload::ImportSection(r) => {
                s.has_imports = true;
                for import in r.into_imports() {
                    let import = import.map_err(malformed)?;
                    if import.module == MODULE {
                        return Err(Fault::load(format!(
                            "unknown import `{}.{}` (the sandbox reserves the module name `{MODULE}`)",
                            import.module, import.name
                        )));
                    }
                    if matches!(import.ty, TypeRef::Func(_) | TypeRef::FuncExact(_)) {
                        s.imported_functions += 1;
                    }
                }
            }
            Payload::TableSection(r) => {
                for table in r {
                    s.funcref_table = table.map_err(malformed)?.ty.element_type == RefType::FUNCREF;
                }
            }
            Payload::DataSection(r) => {
                for data in r {
                    let data = data.map_err(malformed)?;
                    let passive = matches!(data.kind, DataKind::Passive);
                    s.data.push(if passive { data.data.len() as u32 } else { 0 });
                }
            }
            Payload::ElementSection(r) => {
                for element in r {
                    let element = element.map_err(malformed)?;
                    let count = match &element.items {
                        ElementItems::Functions(r) => r.count(),
                        ElementItems::Expressions(_, r) => r.count(),
                    };
                    s.elements.push(if matches!(element.kind, ElementKind::Passive) { count } else { 0 });
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body),
            _ => {}
        }
    }
    for body in bodies {
        let mut reader = body.get_operators_reader().map_err(malformed)?;
        let mut small = false;
        while !reader.eof() {
            let op = reader.read().map_err(malformed)?;
            if let Some(check) = check_for(&op, small, s.funcref_table) {
                if !s.used.contains(&check) {
                    s.used.push(check);
                }
            }
            small = is_small_constant(&op);
        }
    }
    s.used.sort_by_key(|c| CHECKS.iter().position(|x| x == c));
    Ok(s)
}

/// The module with a check before each bulk operation that needs one, or the module itself if
/// none does.
pub(crate) fn instrument(wasm: &[u8]) -> Result<Cow<'_, [u8]>, Fault> {
    let survey = survey(wasm)?;
    if survey.used.is_empty() {
        return Ok(Cow::Borrowed(wasm));
    }
    let mut module = wasm_encoder::Module::new();
    let mut r = Instrument { s: survey, imports_done: false };
    r.parse_core_module(&mut module, Parser::new(0), wasm)
        .map_err(|e| Fault::load(format!("malformed WebAssembly module: {e}")))?;
    Ok(Cow::Owned(module.finish()))
}

struct Instrument {
    s: Survey,
    imports_done: bool,
}

impl Instrument {
    fn add_imports(&mut self, imports: &mut ImportSection) {
        for (i, check) in self.s.used.iter().enumerate() {
            imports.import(MODULE, check.name(), EntityType::Function(self.s.types + i as u32));
        }
        self.imports_done = true;
    }

    /// The function index of a check's import (after the module's own imports).
    fn index_of(&self, check: Check) -> u32 {
        let at = self.s.used.iter().position(|c| *c == check).expect("a used check");
        self.s.imported_functions + at as u32
    }
}

impl Reencode for Instrument {
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(if func < self.s.imported_functions { func } else { func + self.s.used.len() as u32 })
    }

    fn parse_type_section(
        &mut self,
        types: &mut TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_type_section(self, types, section)?;
        for check in &self.s.used {
            let (params, results) = check.signature();
            types.ty().function(params, results);
        }
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_import_section(self, imports, section)?;
        self.add_imports(imports);
        Ok(())
    }

    fn intersperse_section_hook(
        &mut self,
        module: &mut wasm_encoder::Module,
        after: Option<SectionId>,
        before: Option<SectionId>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        // A module without imports gets an import section right after its types.
        if !self.s.has_imports && !self.imports_done && after == Some(SectionId::Type) {
            debug_assert_ne!(before, Some(SectionId::Import));
            let mut imports = ImportSection::new();
            self.add_imports(&mut imports);
            module.section(&imports);
        }
        Ok(())
    }

    fn parse_function_body(
        &mut self,
        code: &mut CodeSection,
        func: FunctionBody<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        let mut f = self.new_function_with_parsed_locals(&func)?;
        let mut reader = func.get_operators_reader()?;
        let mut small = false;
        while !reader.eof() {
            let op = reader.read()?;
            if let Some(check) = check_for(&op, small, self.s.funcref_table) {
                match op {
                    Operator::MemoryInit { data_index, .. } => {
                        let len = self.s.data.get(data_index as usize).copied().unwrap_or(0);
                        f.instruction(&Instruction::I32Const(len as i32));
                    }
                    Operator::TableInit { elem_index, .. } => {
                        let len = self.s.elements.get(elem_index as usize).copied().unwrap_or(0);
                        f.instruction(&Instruction::I32Const(len as i32));
                    }
                    _ => {}
                }
                match check {
                    Check::MemoryFill | Check::MemoryCopy | Check::MemoryInit => {
                        f.instruction(&Instruction::MemorySize(0))
                    }
                    Check::TableFill | Check::TableCopy | Check::TableInit => {
                        f.instruction(&Instruction::TableSize(0))
                    }
                };
                f.instruction(&Instruction::Call(self.index_of(check)));
            }
            small = is_small_constant(&op);
            f.instruction(&self.instruction(op)?);
        }
        code.function(&f);
        Ok(())
    }
}

/// Fuel of the instructions added before an operation: the size, the call, and for `init` the
/// segment's length.
fn added_fuel(check: Check) -> u64 {
    if matches!(check, Check::MemoryInit | Check::TableInit) {
        3
    } else {
        2
    }
}

/// `start..start + len` within `size` (in u64, so no sum wraps).
fn fits(start: i32, len: i32, size: u64) -> bool {
    u64::from(start as u32) + u64::from(len as u32) <= size
}

/// Ends the check: traps as the engine would when out of bounds, else gives back the fuel of
/// the added instructions.
/// With no fuel left (the added instructions took the last of it, or more), the operation would
/// have run out of fuel at its own check: so does the check.
fn finish<T>(
    caller: &mut Caller<'_, T>,
    check: Check,
    in_bounds: bool,
    out: OutOfFuel<T>,
) -> wasmtime::Result<()> {
    let fuel = caller.get_fuel()?;
    if fuel == 0 {
        return Err(out(caller));
    }
    if !in_bounds {
        let memory = matches!(check, Check::MemoryFill | Check::MemoryCopy | Check::MemoryInit);
        return Err(if memory { Trap::MemoryOutOfBounds } else { Trap::TableOutOfBounds }.into());
    }
    caller.set_fuel(fuel + added_fuel(check))
}

const PAGE: u64 = 64 << 10;

/// How the host ends a call for want of fuel (the engine's own error, so that the verdict is
/// `fuel`): `wasm::out_of_fuel`, passed in so that this file needs nothing of the engine's.
pub(crate) type OutOfFuel<T> = fn(&mut Caller<'_, T>) -> wasmtime::Error;

/// Defines the checks in a linker (every engine's, so any instrumented module links).
pub(crate) fn define<T: 'static>(linker: &mut Linker<T>, out: OutOfFuel<T>) -> wasmtime::Result<()> {
    linker
        .func_wrap(
            MODULE,
            Check::MemoryFill.name(),
            move |mut c: Caller<'_, T>, d: i32, v: i32, n: i32, pages: i32| {
                let ok = fits(d, n, u64::from(pages as u32) * PAGE);
                finish(&mut c, Check::MemoryFill, ok, out).map(|()| (d, v, n))
            },
        )?
        .func_wrap(
            MODULE,
            Check::MemoryCopy.name(),
            move |mut c: Caller<'_, T>, d: i32, s: i32, n: i32, pages: i32| {
                let size = u64::from(pages as u32) * PAGE;
                let ok = fits(d, n, size) && fits(s, n, size);
                finish(&mut c, Check::MemoryCopy, ok, out).map(|()| (d, s, n))
            },
        )?
        .func_wrap(
            MODULE,
            Check::MemoryInit.name(),
            move |mut c: Caller<'_, T>, d: i32, s: i32, n: i32, seg: i32, pages: i32| {
                let ok = fits(d, n, u64::from(pages as u32) * PAGE) && fits(s, n, u64::from(seg as u32));
                finish(&mut c, Check::MemoryInit, ok, out).map(|()| (d, s, n))
            },
        )?
        .func_wrap(
            MODULE,
            Check::TableFill.name(),
            move |mut c: Caller<'_, T>, i: i32, v: Option<Func>, n: i32, size: i32| {
                let ok = fits(i, n, u64::from(size as u32));
                finish(&mut c, Check::TableFill, ok, out).map(|()| (i, v, n))
            },
        )?
        .func_wrap(
            MODULE,
            Check::TableCopy.name(),
            move |mut c: Caller<'_, T>, d: i32, s: i32, n: i32, size: i32| {
                let size = u64::from(size as u32);
                let ok = fits(d, n, size) && fits(s, n, size);
                finish(&mut c, Check::TableCopy, ok, out).map(|()| (d, s, n))
            },
        )?
        .func_wrap(
            MODULE,
            Check::TableInit.name(),
            move |mut c: Caller<'_, T>, d: i32, s: i32, n: i32, seg: i32, size: i32| {
                let ok = fits(d, n, u64::from(size as u32)) && fits(s, n, u64::from(seg as u32));
                finish(&mut c, Check::TableInit, ok, out).map(|()| (d, s, n))
            },
        )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example WASM bot instrumented is a valid module, with the checks it needs and no
    /// other change of its imports; the compiled Rust and C bots use bulk operations, so the
    /// instrumentation is exercised on real compilers' output.
    #[test]
    fn example_bots_instrumented_are_valid() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../example_bots");
        let mut changed = 0;
        for dir in ["wasm", "legacy"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "wasm") {
                    continue;
                }
                let wasm = std::fs::read(&path).unwrap();
                let out = instrument(&wasm).unwrap();
                if let Cow::Owned(out) = out {
                    changed += 1;
                    wasmparser::Validator::new()
                        .validate_all(&out)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    let before = survey(&wasm).unwrap();
                    assert!(!before.used.is_empty());
                }
            }
        }
        assert!(changed > 0, "no example bot uses a bulk operation");
    }

    /// A module without imports gets an import section after its types; one with imports gets
    /// the checks after its own, and every function index past them moves.
    #[test]
    fn imports_are_added_in_place() {
        let text = r#"(module
            (memory (export "memory") 1)
            (func $f (export "f") (param i32) (call $g (local.get 0)))
            (func $g (param i32) (memory.fill (i32.const 0) (i32.const 0) (local.get 0)))
            (start $s)
            (func $s))"#;
        let wasm = wat::parse_str(text).unwrap();
        let out = instrument(&wasm).unwrap().into_owned();
        wasmparser::Validator::new().validate_all(&out).unwrap();
        let with_import =
            text.replacen("(memory", r#"(import "env" "log" (func (param i32 i32))) (memory"#, 1);
        let wasm = wat::parse_str(with_import).unwrap();
        let out = instrument(&wasm).unwrap().into_owned();
        wasmparser::Validator::new().validate_all(&out).unwrap();
    }
}
