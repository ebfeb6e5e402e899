(module
  (import "env" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (loop $again
      (call $log (i32.const 0) (i32.const 0))
      (br $again))
    (i64.const 0)))
