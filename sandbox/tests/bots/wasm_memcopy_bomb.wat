;; memory.copy of 60 MiB per instruction: charged per byte by wasmtime's fuel.
(module
  (memory (export "memory") 961)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (loop $again
      (memory.copy (i32.const 0) (i32.const 1) (i32.const 62914560))
      (br $again))
    (i64.const 0)))
