/*
 * {{NAME}}: a cardarena bot for {{GAME}} in C, compiled to WebAssembly without libc.
 *
 *   sh build.sh                                  # clang + wasm-ld -> bot.wasm
 *   arena play --game {{GAME}} --bots {{BOTS}}
 *   arena check bot.wasm --game {{GAME}}
 *
 * The arena writes the observation JSON (`arena docs {{GAME}}`) into memory and calls
 * act(obs, len); the reply must be one string of its "legal" array. cardarena.h has the
 * helpers to read the JSON by hand (ca_find, ca_int_field, ca_string_at) and to reply.
 */
#include "cardarena.h"

/* Count the decisions: static variables keep their values for the whole match. */
static int decisions;

CA_EXPORT("act") long long act(const char *obs, int len) {
  decisions++;
  /* A first strategy: the first legal action. Replace it with something clever. */
  int at = ca_find(obs, len, 0, "\"legal\":[");
  if (at < 0) return ca_reply(""); /* cannot happen: every observation to act on has "legal" */
  int start, n;
  if (ca_string_at(obs, len, at + 9, &start, &n) < 0) return ca_reply("");
  return ca_reply_n(obs + start, n); /* the reply may point into the observation itself */
}
