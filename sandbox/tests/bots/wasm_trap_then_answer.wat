;; Traps when the observation starts with '!'; otherwise replies with the number of decisions
;; this instance has seen (a digit). After a trap the instance is replaced, so the count
;; starts again.
(module
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (data (i32.const 0) "0123456789")
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.eq (i32.load8_u (local.get $ptr)) (i32.const 33))
      (then (unreachable)))
    ;; the digit for $calls lives at address $calls
    (i64.or (i64.shl (i64.extend_i32_u (global.get $calls)) (i64.const 32)) (i64.const 1))))
