(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func $recurse (param $n i64) (result i64)
    (i64.add (i64.const 1) (call $recurse (i64.add (local.get $n) (i64.const 1)))))
  (func (export "act") (param i32 i32) (result i64)
    (call $recurse (i64.const 0))))
