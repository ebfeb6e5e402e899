(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param $p i32) (param $n i32) (result i64)
    (i64.extend_i32_u (i32.div_u (i32.const 1) (i32.sub (local.get $n) (local.get $n))))))
