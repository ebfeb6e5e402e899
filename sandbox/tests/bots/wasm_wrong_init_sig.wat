(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "init") (param i32) (result i32) (i32.const 0))
  (func (export "act") (param i32 i32) (result i64) (i64.const 0)))
