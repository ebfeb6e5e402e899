/*
 * cardarena.h: write a cardarena bot in C, compiled to a WASM module without any libc.
 *
 * Include it in exactly ONE .c file (it defines functions), write `act`, and build:
 *
 *   clang --target=wasm32 -O2 -nostdlib -ffreestanding -Wl,--no-entry \
 *         -o my_bot.wasm my_bot.c
 *
 * (`-Wl,--no-entry`: a bot has no main; the exports come from the CA_EXPORT attributes.)
 *
 * The ABI (docs/bot-api.md, CONTRACT.md section 3):
 *   - the module exports `memory` (wasm-ld does that by default), `alloc` (defined below) and
 *     `act` (yours); `init` is optional;
 *   - before each call the host asks `alloc(len)` for a buffer, writes the observation JSON
 *     (or, before `init`, the info JSON) there, then calls `act(ptr, len)` / `init(ptr, len)`;
 *   - `act` returns the reply (one string of the observation's "legal" array) packed as
 *     (ptr << 32) | len: use ca_reply(...);
 *   - the host offers `env.log(ptr, len)` and `env.budget_left()`: ca_log(...) and
 *     ca_budget_left() below.
 *
 * Memory: `alloc` is a bump allocator that starts over at every host call, so memory from
 * ca_bump() lives until the host's next `alloc` (the end of this decision: long enough for
 * the reply). Keep whatever must survive between decisions in static variables.
 *
 * A minimal bot:
 *
 *   #include "cardarena.h"
 *   CA_EXPORT("act") long long act(const char *obs, int len) {
 *     int at = ca_find(obs, len, 0, "\"legal\"");   // the first legal action
 *     int start, n;
 *     ca_string_at(obs, len, at + 7, &start, &n);
 *     return ca_reply_n(obs + start, n);
 *   }
 */
#ifndef CARDARENA_H
#define CARDARENA_H

/* Exports and imports, by name. */
#define CA_EXPORT(name) __attribute__((export_name(name), used))
#define CA_IMPORT(name) __attribute__((import_module("env"), import_name(name)))
/* Helpers: a bot that does not use one gets no warning and no code for it. */
#define CA_HELPER static __attribute__((unused))

/* ---- Host functions (module "env"; both optional for the arena). ---------------------- */

/* One line of the bot's log: 100 fuel + 1 per byte. */
CA_IMPORT("log") void ca_host_log(const char *ptr, int len);
/* The fuel left for this decision (1 unit = about one WebAssembly instruction). */
CA_IMPORT("budget_left") long long ca_budget_left(void);

/* ---- The few libc pieces a bot needs (the compiler may also call memcpy/memset). ------ */

void *memcpy(void *dst, const void *src, unsigned long n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

void *memset(void *dst, int c, unsigned long n) {
  unsigned char *d = dst;
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

CA_HELPER int ca_strlen(const char *s) {
  int n = 0;
  while (s[n]) n++;
  return n;
}

/* ---- The allocator the host calls. ----------------------------------------------------- */

extern unsigned char __heap_base; /* defined by wasm-ld: the first free byte */
static unsigned long ca_heap_top;

/* `n` bytes (8-aligned) from the bump heap, growing the memory if needed; 0 if impossible. */
CA_HELPER void *ca_bump(int n) {
  if (n < 0) return 0;
  unsigned long start = (ca_heap_top + 7) & ~7ul;
  unsigned long end = start + (unsigned long)n;
  unsigned long have = __builtin_wasm_memory_size(0) * 65536ul;
  if (end > have) {
    unsigned long pages = (end - have + 65535) / 65536;
    if (__builtin_wasm_memory_grow(0, pages) == (unsigned long)-1) return 0;
  }
  ca_heap_top = end;
  return (void *)start;
}

CA_EXPORT("alloc") int ca_alloc(int len) {
  ca_heap_top = (unsigned long)&__heap_base; /* every host call starts a fresh heap */
  return (int)(unsigned long)ca_bump(len);
}

/* ---- Replies. -------------------------------------------------------------------------- */

/* Packs a reply of `n` bytes at `s` for the host: (ptr << 32) | len. */
CA_HELPER long long ca_reply_n(const char *s, int n) {
  return (long long)(((unsigned long long)(unsigned long)s << 32) | (unsigned)n);
}

/* Packs a NUL-terminated reply. `s` must stay valid until the next host call (a string
   literal, a static buffer, ca_bump memory or the observation itself). */
CA_HELPER long long ca_reply(const char *s) { return ca_reply_n(s, ca_strlen(s)); }

/* ---- Logging. -------------------------------------------------------------------------- */

CA_HELPER void ca_log(const char *s) { ca_host_log(s, ca_strlen(s)); }

/* Logs "label value", e.g. ca_log_int("fuel left", ca_budget_left()). */
CA_HELPER void ca_log_int(const char *label, long long value) {
  char buf[96];
  int n = 0;
  while (*label && n < 70) buf[n++] = *label++;
  buf[n++] = ' ';
  if (value < 0) {
    buf[n++] = '-';
    value = -value;
  }
  char digits[20];
  int d = 0;
  do {
    digits[d++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0 && d < 20);
  while (d > 0) buf[n++] = digits[--d];
  ca_host_log(buf, n);
}

/* ---- Reading the observation JSON by hand. ------------------------------------------------
   The observations are compact JSON (no spaces) with the fields documented in
   docs/games/<game>.md; bots usually need only a few of them. */

/* The index of the first `needle` in s[from..len), or -1. */
CA_HELPER int ca_find(const char *s, int len, int from, const char *needle) {
  int n = ca_strlen(needle);
  for (int i = from; i + n <= len; i++) {
    int j = 0;
    while (j < n && s[i + j] == needle[j]) j++;
    if (j == n) return i;
  }
  return -1;
}

/* The integer at s[at..] (after optional spaces and a minus sign); 0 if none. */
CA_HELPER long long ca_int_at(const char *s, int len, int at) {
  while (at < len && s[at] == ' ') at++;
  int negative = at < len && s[at] == '-';
  if (negative) at++;
  long long v = 0;
  while (at < len && s[at] >= '0' && s[at] <= '9') v = v * 10 + (s[at++] - '0');
  return negative ? -v : v;
}

/* The integer value of the first `"key":` (write the key with its quotes and colon, e.g.
   "\"seat\":"), or `missing` if the key is absent. */
CA_HELPER long long ca_int_field(const char *s, int len, const char *key, long long missing) {
  int at = ca_find(s, len, 0, key);
  return at < 0 ? missing : ca_int_at(s, len, at + ca_strlen(key));
}

/* Finds the next JSON string at or after s[at]: sets *start to the index of its first
   character and *n to its length (no escapes are handled: action strings have none).
   Returns the index just after its closing quote, or -1. */
CA_HELPER int ca_string_at(const char *s, int len, int at, int *start, int *n) {
  while (at < len && s[at] != '"') at++;
  if (at >= len) return -1;
  int i = at + 1;
  while (i < len && s[i] != '"') i++;
  if (i >= len) return -1;
  *start = at + 1;
  *n = i - at - 1;
  return i + 1;
}

/* Whether s[start..start+n) equals the NUL-terminated `word`. */
CA_HELPER int ca_equals(const char *s, int start, int n, const char *word) {
  int i = 0;
  while (i < n && word[i] && s[start + i] == word[i]) i++;
  return i == n && word[i] == 0;
}

#endif /* CARDARENA_H */
