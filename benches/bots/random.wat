;; random.wat: the benchmark's WASM random bot (any game). `init` seeds a 64-bit LCG with the
;; FNV-1a hash of the init info (which holds the match seed and the seat); `act` collects the
;; strings of the observation's "legal" array and answers one of them uniformly at random.
(module
  (memory (export "memory") 1)
  ;; `"legal"` at 16; the start/end table of legal strings at 1024 (up to 4096 entries);
  ;; the input buffer at 34816, in the first page (it grows only for inputs over 30 KiB).
  (data (i32.const 16) "\"legal\"")
  (global $state (mut i64) (i64.const 0x9e3779b97f4a7c15))
  (global $input i32 (i32.const 34816))

  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    (local.set $need
      (i32.shr_u (i32.add (i32.add (global.get $input) (local.get $len)) (i32.const 65535))
                 (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (global.get $input))

  (func (export "init") (param $ptr i32) (param $len i32)
    (local $h i64) (local $i i32)
    (local.set $h (i64.const 0xcbf29ce484222325))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $h (i64.mul (i64.xor (local.get $h)
                                        (i64.load8_u (i32.add (local.get $ptr) (local.get $i))))
                               (i64.const 0x100000001b3)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (global.set $state (local.get $h)))

  (func $is_legal_key (param $at i32) (result i32)
    (local $i i32)
    (block $no
      (loop $next
        (br_if $no
          (i32.ne (i32.load8_u (i32.add (local.get $at) (local.get $i)))
                  (i32.load8_u (i32.add (i32.const 16) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 7))))
      (return (i32.const 1)))
    (i32.const 0))

  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32) (local $end i32) (local $n i32) (local $c i32) (local $k i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $at (local.get $ptr))
    ;; the key
    (block $found
      (loop $scan
        (if (i32.gt_u (i32.add (local.get $at) (i32.const 7)) (local.get $end)) (then (unreachable)))
        (br_if $found (call $is_legal_key (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    (local.set $at (i32.add (local.get $at) (i32.const 7)))
    ;; the strings up to the closing `]`
    (block $closed
      (loop $item
        (if (i32.ge_u (local.get $at) (local.get $end)) (then (unreachable)))
        (local.set $c (i32.load8_u (local.get $at)))
        (br_if $closed (i32.eq (local.get $c) (i32.const 93)))          ;; ']'
        (if (i32.eq (local.get $c) (i32.const 34))                       ;; '"' opens a string
          (then
            (i32.store (i32.add (i32.const 1024) (i32.shl (local.get $n) (i32.const 3)))
                       (i32.add (local.get $at) (i32.const 1)))
            (block $close
              (loop $text
                (local.set $at (i32.add (local.get $at) (i32.const 1)))
                (if (i32.ge_u (local.get $at) (local.get $end)) (then (unreachable)))
                (br_if $close (i32.eq (i32.load8_u (local.get $at)) (i32.const 34)))
                (br $text)))
            (i32.store (i32.add (i32.const 1028) (i32.shl (local.get $n) (i32.const 3)))
                       (local.get $at))
            (if (i32.lt_u (local.get $n) (i32.const 4095))
              (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $item)))
    (if (i32.eqz (local.get $n)) (then (unreachable)))
    ;; one of them
    (global.set $state (i64.add (i64.mul (global.get $state) (i64.const 6364136223846793005))
                                (i64.const 1442695040888963407)))
    (local.set $k (i32.wrap_i64 (i64.rem_u (i64.shr_u (global.get $state) (i64.const 33))
                                           (i64.extend_i32_u (local.get $n)))))
    (local.set $at (i32.load (i32.add (i32.const 1024) (i32.shl (local.get $k) (i32.const 3)))))
    (local.set $end (i32.load (i32.add (i32.const 1028) (i32.shl (local.get $k) (i32.const 3)))))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $at)) (i64.const 32))
            (i64.extend_i32_u (i32.sub (local.get $end) (local.get $at))))))
