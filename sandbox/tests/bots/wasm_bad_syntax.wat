(module
  (memory (export "memory") 1)
  (func (export "act") (param i32 i32) (result i64)
    (i64.const 0)
