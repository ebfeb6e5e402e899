/*
 * ecard_bot.c: an E-card bot in C, without libc, reading the observation JSON by hand.
 *
 *   clang --target=wasm32 -O2 -nostdlib -ffreestanding -Wl,--no-entry \
 *         -o ecard_c.wasm example_bots/c/ecard_bot.c
 *   arena play --game ecard --bots ecard_c.wasm,random
 *
 * The strategy is the one of example_bots/lua/ecard_greedy.lua: estimate p, the chance that
 * the opponent shows its special card (E or S) when it could show a Citizen instead, from its
 * plays so far; then play the card with the best expected points for the round, looking ahead
 * over the round's remaining plays. Against a random opponent (p = 1/2): the Emperor side
 * plays Citizens, the Slave side plays the Slave at once.
 *
 * Fields used (docs/games/ecard.md): seat, play, max_plays, side, hand, opponent_hand, every
 * "plays" array (the current round's and each finished round's), legal.
 */
#include "cardarena.h"

/* The round as the recursion sees it. */
static double p_special;     /* the opponent shows its special card with this chance */
static int i_am_emperor;     /* 1 if we are on the Emperor side this round */
static int max_plays;        /* 3 (readme) or 5 (manga) */

/* Cards: 'E', 'C', 'S'. Our points from a play, or 0 with *open = 1 for a Citizen draw. */
static double play_points(char mine, char theirs, int *open) {
  *open = 0;
  if (mine == 'C' && theirs == 'C') {
    *open = 1;
    return 0;
  }
  int slave_wins = (mine == 'S' && theirs == 'E') || (mine == 'E' && theirs == 'S');
  int we_win = slave_wins ? !i_am_emperor : i_am_emperor;
  double points = slave_wins ? 5 : 1; /* a Slave-side win is worth 5, an Emperor-side win 1 */
  return we_win ? points : -points;
}

static double best_value(int play, int mine, int theirs);

/* Expected round points when we play `card` at `play`, holding `mine` Citizens against
   `theirs`, and play best afterwards. */
static double value_of(char card, int play, int mine, int theirs) {
  double p = theirs == 0 ? 1.0 : p_special;
  char their_special = i_am_emperor ? 'S' : 'E';
  int open;
  double total = p * play_points(card, their_special, &open);
  double citizen = play_points(card, 'C', &open);
  if (open) citizen = play >= max_plays ? 0 : best_value(play + 1, mine - 1, theirs - 1);
  return total + (1 - p) * citizen;
}

static double best_value(int play, int mine, int theirs) {
  char special = i_am_emperor ? 'E' : 'S';
  double v = value_of(special, play, mine, theirs);
  if (mine > 0) {
    double c = value_of('C', play, mine, theirs);
    if (c > v) v = c;
  }
  return v;
}

/* The number of "C" strings in the array that follows `key` (e.g. "\"hand\":["). */
static int count_citizens(const char *obs, int len, const char *key) {
  int at = ca_find(obs, len, 0, key);
  if (at < 0) return 0;
  int n = 0;
  for (int i = at + ca_strlen(key); i < len && obs[i] != ']'; i++) {
    if (obs[i] == 'C') n++;
  }
  return n;
}

/* Optional: called once per match with {"game", "variant", "seat", "players", "seed"}. */
CA_EXPORT("init") void init(const char *info, int len) {
  ca_log_int("ecard_bot.c: playing seat", ca_int_field(info, len, "\"seat\":", -1));
}

CA_EXPORT("act") long long act(const char *obs, int len) {
  int seat = (int)ca_int_field(obs, len, "\"seat\":", 0);
  int play = (int)ca_int_field(obs, len, "\"play\":", 1);
  max_plays = (int)ca_int_field(obs, len, "\"max_plays\":", 3);
  i_am_emperor = ca_find(obs, len, 0, "\"side\":\"emperor\"") >= 0;
  int mine = count_citizens(obs, len, "\"hand\":[");
  int theirs = count_citizens(obs, len, "\"opponent_hand\":[");

  /* Every "plays" array: [["C","C"],["E","C"]]. In each, look at the opponent's card of the
     first 4 plays (it still held a Citizen then). */
  int shown = 0, chances = 0;
  for (int at = ca_find(obs, len, 0, "\"plays\":["); at >= 0;
       at = ca_find(obs, len, at + 1, "\"plays\":[")) {
    int i = at + 9, k = 0; /* just after the outer '[' */
    while (i < len && obs[i] == '[') {  /* one play: ["X","Y"] */
      char cards[2];
      int start, n;
      i = ca_string_at(obs, len, i, &start, &n);
      cards[0] = obs[start];
      i = ca_string_at(obs, len, i, &start, &n);
      cards[1] = obs[start];
      i += 1;                            /* past the inner ']' */
      if (obs[i] == ',') i++;
      if (++k <= 4) {
        chances++;
        if (cards[1 - seat] != 'C') shown++;
      }
    }
  }
  p_special = (shown + 1.0) / (chances + 3.0); /* prior: 1/3, worth 3 plays */

  /* Rate the legal cards ("legal":["E","C"]); keep the best. */
  int at = ca_find(obs, len, 0, "\"legal\":[");
  if (at < 0) return ca_reply("C");
  at += 9;
  int best_start = -1;
  double best = -1e9;
  int start, n;
  while (at < len && obs[at] != ']' && (at = ca_string_at(obs, len, at, &start, &n)) >= 0) {
    double v = value_of(obs[start], play, mine, theirs);
    if (v > best + 1e-9) {
      best = v;
      best_start = start;
    }
  }
  if (best_start < 0) return ca_reply("C");
  return ca_reply_n(obs + best_start, 1); /* the reply points into the observation itself */
}
