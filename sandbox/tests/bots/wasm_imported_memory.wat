(module
  (import "env" "memory" (memory 1))
  (export "memory" (memory 0))
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64) (i64.const 0)))
