;; Calibration workload, the same algorithm as calib.lua: insertion sort of 600 LCG numbers,
;; then 200 random "trick" playouts of a 52-card deck. Replies with both checksums.
(module
  (memory (export "memory") 1)
  (global $x (mut i32) (i32.const 12345))
  (func (export "alloc") (param i32) (result i32) (i32.const 32768))

  (func $lcg (result i32)
    (global.set $x (i32.and (i32.add (i32.mul (global.get $x) (i32.const 1103515245))
                                     (i32.const 12345))
                            (i32.const 0x7fffffff)))
    (global.get $x))

  ;; array a[0..600) at address 0
  (func $sort_work (result i64)
    (local $i i32) (local $j i32) (local $v i32) (local $sum i32)
    (local.set $i (i32.const 0))
    (loop $fill
      (i32.store (i32.shl (local.get $i) (i32.const 2))
                 (i32.rem_u (call $lcg) (i32.const 1000)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $i) (i32.const 600))))
    (local.set $i (i32.const 1))
    (loop $outer
      (local.set $v (i32.load (i32.shl (local.get $i) (i32.const 2))))
      (local.set $j (i32.sub (local.get $i) (i32.const 1)))
      (block $placed
        (loop $inner
          (br_if $placed (i32.lt_s (local.get $j) (i32.const 0)))
          (br_if $placed (i32.le_u (i32.load (i32.shl (local.get $j) (i32.const 2)))
                                   (local.get $v)))
          (i32.store (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2))
                     (i32.load (i32.shl (local.get $j) (i32.const 2))))
          (local.set $j (i32.sub (local.get $j) (i32.const 1)))
          (br $inner)))
      (i32.store (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)) (local.get $v))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $i) (i32.const 600))))
    (local.set $sum (i32.const 0))
    (local.set $i (i32.const 0))
    (loop $acc
      (local.set $sum
        (i32.and (i32.add (local.get $sum)
                          (i32.mul (i32.load (i32.shl (local.get $i) (i32.const 2)))
                                   (local.get $i)))
                 (i32.const 0x7fffffff)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $acc (i32.lt_u (local.get $i) (i32.const 600))))
    (i64.extend_i32_u (local.get $sum)))

  ;; deck[0..52) at 4096, wins[0..4) at 8192
  (func $deck (param $i i32) (result i32)
    (i32.add (i32.const 4096) (i32.shl (local.get $i) (i32.const 2))))
  (func $win (param $i i32) (result i32)
    (i32.add (i32.const 8192) (i32.shl (local.get $i) (i32.const 2))))

  (func $playout_work (result i64)
    (local $p i32) (local $i i32) (local $j i32) (local $tmp i32)
    (local $leader i32) (local $t i32) (local $led i32) (local $best i32)
    (local $winner i32) (local $k i32) (local $pl i32) (local $c i32)
    (local.set $i (i32.const 0))
    (loop $clear
      (i32.store (call $win (local.get $i)) (i32.const 0))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $clear (i32.lt_u (local.get $i) (i32.const 4))))
    (local.set $p (i32.const 0))
    (loop $playout
      (local.set $i (i32.const 0))
      (loop $init
        (i32.store (call $deck (local.get $i)) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $init (i32.lt_u (local.get $i) (i32.const 52))))
      (local.set $i (i32.const 51))
      (loop $shuffle
        (local.set $j (i32.rem_u (call $lcg) (i32.add (local.get $i) (i32.const 1))))
        (local.set $tmp (i32.load (call $deck (local.get $i))))
        (i32.store (call $deck (local.get $i)) (i32.load (call $deck (local.get $j))))
        (i32.store (call $deck (local.get $j)) (local.get $tmp))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br_if $shuffle (i32.ge_s (local.get $i) (i32.const 1))))
      (local.set $leader (i32.const 0))
      (local.set $t (i32.const 0))
      (loop $trick
        (local.set $led
          (i32.div_u (i32.load (call $deck (i32.add (i32.mul (local.get $leader) (i32.const 13))
                                                   (local.get $t))))
                     (i32.const 13)))
        (local.set $best (i32.const -1))
        (local.set $winner (local.get $leader))
        (local.set $k (i32.const 0))
        (loop $players
          (local.set $pl (i32.rem_u (i32.add (local.get $leader) (local.get $k)) (i32.const 4)))
          (local.set $c (i32.load (call $deck (i32.add (i32.mul (local.get $pl) (i32.const 13))
                                                      (local.get $t)))))
          (if (i32.and (i32.eq (i32.div_u (local.get $c) (i32.const 13)) (local.get $led))
                       (i32.gt_s (i32.rem_u (local.get $c) (i32.const 13)) (local.get $best)))
            (then
              (local.set $best (i32.rem_u (local.get $c) (i32.const 13)))
              (local.set $winner (local.get $pl))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br_if $players (i32.lt_u (local.get $k) (i32.const 4))))
        (i32.store (call $win (local.get $winner))
                   (i32.add (i32.load (call $win (local.get $winner))) (i32.const 1)))
        (local.set $leader (local.get $winner))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br_if $trick (i32.lt_u (local.get $t) (i32.const 13))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $playout (i32.lt_u (local.get $p) (i32.const 200))))
    (i64.add
      (i64.add (i64.mul (i64.extend_i32_u (i32.load (call $win (i32.const 0)))) (i64.const 1000000))
               (i64.mul (i64.extend_i32_u (i32.load (call $win (i32.const 1)))) (i64.const 10000)))
      (i64.add (i64.mul (i64.extend_i32_u (i32.load (call $win (i32.const 2)))) (i64.const 100))
               (i64.extend_i32_u (i32.load (call $win (i32.const 3)))))))

  ;; Writes the decimal digits of $v ending just before $end; returns the start.
  (func $itoa (param $v i64) (param $end i32) (result i32)
    (loop $digit
      (local.set $end (i32.sub (local.get $end) (i32.const 1)))
      (i64.store8 (local.get $end) (i64.add (i64.const 48) (i64.rem_u (local.get $v) (i64.const 10))))
      (local.set $v (i64.div_u (local.get $v) (i64.const 10)))
      (br_if $digit (i64.ne (local.get $v) (i64.const 0))))
    (local.get $end))

  (func (export "act") (param i32 i32) (result i64)
    (local $s i64) (local $p i64) (local $start i32)
    (global.set $x (i32.const 12345))
    (local.set $s (call $sort_work))
    (local.set $p (call $playout_work))
    ;; "<s> <p>" built backwards ending at 16384
    (local.set $start (call $itoa (local.get $p) (i32.const 16384)))
    (local.set $start (i32.sub (local.get $start) (i32.const 1)))
    (i32.store8 (local.get $start) (i32.const 32))
    (local.set $start (call $itoa (local.get $s) (local.get $start)))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $start)) (i64.const 32))
            (i64.extend_i32_u (i32.sub (i32.const 16384) (local.get $start))))))
