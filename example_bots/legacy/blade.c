// A Blade bot for blutorange's codegolf controller (controller.rb), unchanged: one run per
// decision, the game state as one JSON line on stdin, a hand index on stdout. The arena runs
// it compiled to wasm32-wasi (docs/legacy-bots.md):
//
//   clang --target=wasm32-wasi -O2 -Wl,--strip-all -o blade_c.wasm blade.c
//   arena tournament --game blade --variant controller legacy:blade:blade_c.wasm greedy
//
// Strategy: play the smallest number card that puts us strictly ahead (keeping B and M for
// later); else Bolt or Mirror if either wins; else, like players/random/random.rb, a random
// index (seeded with srand(time(NULL)): deterministic in the arena, whose clock is virtual).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX 32

struct card { int type, value, valid; };
struct side { struct card field[MAX]; int n_field, score; };

static char line[1 << 16];

// Reads the card objects of the JSON array starting at `p` ('[') into `out`; returns the count.
static int read_cards(const char *p, struct card *out) {
    int n = 0;
    const char *end = strchr(p, ']');
    while ((p = strstr(p, "{\"type\":")) != NULL && p < end && n < MAX) {
        struct card c;
        c.type = atoi(p + 8);
        const char *v = strstr(p, "\"value\":");
        c.value = v ? atoi(v + 8) : 0;
        const char *ok = strstr(p, "\"valid\":");
        c.valid = ok && strncmp(ok + 8, "true", 4) == 0;
        out[n++] = c;
        p++;
    }
    return n;
}

static const char *after(const char *from, const char *key) {
    const char *p = strstr(from, key);
    return p ? p + strlen(key) : NULL;
}

static int score(const struct card *cards, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) if (cards[i].valid) s += cards[i].value;
    return s;
}

int main(void) {
    srand((unsigned) time(NULL));
    if (!fgets(line, sizeof line, stdin)) return 1;
    const char *player = after(line, "\"player\":");
    const char *opponent = after(line, "\"opponent\":");
    if (!player || !opponent) return 2;
    struct card hand[MAX];
    int n_hand = read_cards(after(player, "\"hand\":"), hand);
    struct side me, them;
    me.n_field = read_cards(after(player, "\"field\":"), me.field);
    them.n_field = read_cards(after(opponent, "\"field\":"), them.field);
    me.score = score(me.field, me.n_field);
    them.score = score(them.field, them.n_field);
    int best = -1;
    for (int i = 0; i < n_hand; i++) {
        int t = hand[i].type;
        if (t < 2 || t > 7) continue;
        int mine = me.score + t;
        if (mine > them.score && (best < 0 || t < hand[best].type)) best = i;
    }
    for (int i = 0; i < n_hand && best < 0; i++) {
        if (n_hand == 1) break;  // B or M as the last card loses
        if (hand[i].type == 8 && them.score > me.score) best = i;  // Mirror: swap the fields
        if (hand[i].type == 0 && them.n_field > 0) {
            struct card top = them.field[them.n_field - 1];
            if (top.valid && them.score - top.value > me.score) continue;
            if (top.valid && them.score - top.value < me.score) best = i;  // Bolt their top card
        }
    }
    if (best < 0) best = rand() % n_hand;
    printf("%d\n", best);
    return 0;
}
