(module
  (memory (export "memory") 1)
  (table 4 funcref)
  (type $t (func (result i64)))
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (call_indirect (type $t) (i32.const 2))))
