;; Traps on its first decision; afterwards answers with how many decisions this instance
;; has seen ("1" after a restart, since the instance state is lost).
(module
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (data (i32.const 0) "0123456789")
  (data (i32.const 100) "\00")
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "init") (param i32 i32)
    ;; remember in memory that init ran (memory survives only within an instance)
    (i32.store8 (i32.const 100) (i32.add (i32.load8_u (i32.const 100)) (i32.const 1))))
  (func (export "act") (param i32 i32) (result i64)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.eqz (i32.load8_u (i32.const 200)))
      (then
        (i32.store8 (i32.const 200) (i32.const 1))
        (unreachable)))
    ;; reply: the digit for $calls
    (i64.or (i64.shl (i64.extend_i32_u (global.get $calls)) (i64.const 32)) (i64.const 1))))
