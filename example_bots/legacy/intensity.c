// An Intensity bot for the COMP1511 18s1 referee's protocol, unchanged: one run per decision,
// whitespace-separated integers on stdin, the answer on stdout. The arena runs it compiled to
// wasm32-wasi (docs/legacy-bots.md):
//
//   clang --target=wasm32-wasi -O2 -Wl,--strip-all -o intensity_c.wasm intensity.c
//   arena tournament --game intensity legacy:comp1511:intensity_c.wasm greedy random random
//
// Strategy: pass the three cards with the highest unit digits (the spec's example: 29 39 49);
// follow suit with the highest card that does not win the trick, else the lowest; when void,
// shed the buffalo, then the highest calf, then the highest card; lead the lowest legal card.
#include <stdio.h>

#define MAX_CARDS 40

static int suit(int card) { return card / 10; }
static int is_calf(int card) { return card >= 30 && card <= 39; }

static void print_name(void) {
    // Like the starter code: no newline and no fflush; the C library flushes at exit.
    printf("legacy c example");
}

static void choose_discards(void) {
    int hand[10];
    for (int i = 0; i < 10; i++) scanf("%d", &hand[i]);
    int chosen[10] = {0};
    for (int k = 0; k < 3; k++) {
        int best = -1;
        for (int i = 0; i < 10; i++) {
            if (chosen[i]) continue;
            if (best < 0 || hand[i] % 10 > hand[best] % 10 ||
                (hand[i] % 10 == hand[best] % 10 && hand[i] > hand[best])) best = i;
        }
        chosen[best] = 1;
    }
    int n = 0;
    for (int i = 0; i < 10; i++) {
        if (chosen[i]) printf(n++ ? " %d" : "%d", hand[i]);
    }
    printf("\n");
}

static void choose_card(void) {
    int n_hand, n_played, position;
    scanf("%d %d %d", &n_hand, &n_played, &position);
    int hand[10], played[3], previous[MAX_CARDS];
    for (int i = 0; i < n_hand; i++) scanf("%d", &hand[i]);
    for (int i = 0; i < n_played; i++) scanf("%d", &played[i]);
    int n_previous = 4 * (10 - n_hand);
    int calves_broken = 0;
    for (int i = 0; i < n_previous; i++) {
        scanf("%d", &previous[i]);
        calves_broken |= is_calf(previous[i]);
    }
    // (the discarded and received cards follow; this bot does not need them)
    int answer = -1;
    if (n_played == 0) {
        int only_calves = 1;
        for (int i = 0; i < n_hand; i++) only_calves &= is_calf(hand[i]);
        for (int i = 0; i < n_hand && answer < 0; i++) {
            if (!is_calf(hand[i]) || calves_broken || only_calves) answer = hand[i];
        }
    } else {
        int led = suit(played[0]), winning = played[0];
        for (int i = 1; i < n_played; i++) {
            if (suit(played[i]) == led && played[i] > winning) winning = played[i];
        }
        int lowest = -1, duck = -1;
        for (int i = 0; i < n_hand; i++) {
            if (suit(hand[i]) != led) continue;
            if (lowest < 0) lowest = hand[i];
            if (hand[i] < winning) duck = hand[i];
        }
        if (duck >= 0) {
            answer = duck;
        } else if (lowest >= 0) {
            answer = lowest;
        } else {
            for (int i = 0; i < n_hand; i++) if (hand[i] == 47) answer = 47;
            for (int i = 0; i < n_hand && answer < 0; i++) {
                if (is_calf(hand[i]) && (i + 1 == n_hand || !is_calf(hand[i + 1]))) answer = hand[i];
            }
            if (answer < 0) answer = hand[n_hand - 1];
        }
    }
    printf("%d\n", answer);
}

int main(void) {
    int request;
    if (scanf("%d", &request) != 1) return 1;
    if (request == 0) print_name();
    else if (request == 1) choose_discards();
    else if (request == 2) choose_card();
    return 0;
}
