;; Replies with the decimal value of budget_left().
(module
  (import "env" "budget_left" (func $budget_left (result i64)))
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (local $v i64) (local $p i32)
    (local.set $v (call $budget_left))
    (local.set $p (i32.const 600))
    (loop $digit
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (i64.store8 (local.get $p) (i64.add (i64.const 48) (i64.rem_u (local.get $v) (i64.const 10))))
      (local.set $v (i64.div_u (local.get $v) (i64.const 10)))
      (br_if $digit (i64.ne (local.get $v) (i64.const 0))))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $p)) (i64.const 32))
            (i64.extend_i32_u (i32.sub (i32.const 600) (local.get $p))))))
