;; first_legal.wat: a bot written by hand in WebAssembly text. It plays every game: it finds
;; the "legal" array in the observation JSON and answers its first string.
;;
;;   arena play --game blade --bots example_bots/wat/first_legal.wat,random
;;
;; The arena accepts .wat files as they are (it compiles the text itself). The ABI
;; (docs/bot-api.md): export `memory`, `alloc(len) -> ptr` and `act(ptr, len) -> i64`, where
;; the i64 packs the reply as (ptr << 32) | len.
(module
  ;; Optional host function: one line of the bot's log.
  (import "env" "log" (func $log (param i32 i32)))

  ;; One page (64 KiB) to start with; `alloc` grows it when an observation needs more.
  (memory (export "memory") 1)

  ;; The pattern we look for, at address 16: the 7 bytes `"legal"` (with its quotes).
  (data (i32.const 16) "\"legal\"")
  ;; A log line, at address 32 (27 bytes).
  (data (i32.const 32) "first_legal: no legal array")

  ;; The host writes each observation at this address. Everything below it is ours.
  (global $input i32 (i32.const 1024))

  ;; alloc(len): always the same buffer (the host copies one observation at a time), after
  ;; making sure the memory holds 1024 + len bytes.
  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    ;; pages needed = ceil((1024 + len) / 65536)
    (local.set $need
      (i32.shr_u (i32.add (i32.add (global.get $input) (local.get $len)) (i32.const 65535))
                 (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (global.get $input))

  ;; Whether the 7 bytes of `"legal"` start at $at.
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

  ;; act(ptr, len): scan for `"legal"`, then for the next `"` (the start of the first
  ;; action: the `[` and any spaces are skipped), then for its closing `"`.
  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32)
    (local $end i32)
    (local $start i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $at (local.get $ptr))
    ;; 1. find the key (the observation's keys are never inside string values)
    (block $found
      (loop $scan
        (if (i32.gt_u (i32.add (local.get $at) (i32.const 7)) (local.get $end))
          (then (call $log (i32.const 32) (i32.const 27))
                (unreachable)))                        ;; no key: trap (verdict `crash`)
        (br_if $found (call $is_legal_key (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    ;; 2. the next quote after the key (skipping `:` and `[`) opens the first action
    (local.set $at (i32.add (local.get $at) (i32.const 7)))
    (block $open
      (loop $skip
        (br_if $open (i32.eq (i32.load8_u (local.get $at)) (i32.const 34)))   ;; '"'
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br_if $skip (i32.lt_u (local.get $at) (local.get $end)))
        (unreachable)))
    (local.set $start (i32.add (local.get $at) (i32.const 1)))
    ;; 3. its closing quote (actions contain no escaped characters)
    (local.set $at (local.get $start))
    (block $close
      (loop $text
        (br_if $close (i32.eq (i32.load8_u (local.get $at)) (i32.const 34)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br_if $text (i32.lt_u (local.get $at) (local.get $end)))
        (unreachable)))
    ;; The reply is the action's bytes inside the observation: (start << 32) | length.
    (i64.or
      (i64.shl (i64.extend_i32_u (local.get $start)) (i64.const 32))
      (i64.extend_i32_u (i32.sub (local.get $at) (local.get $start))))))
