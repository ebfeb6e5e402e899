// A COMP1511 Intensity program with a bug: when it is last to play in a trick it gives up with
// exit code 3 (after a line on stderr). Otherwise it plays the lowest legal card.
// tests/legacy.rs plays it in a tournament, then reruns a crash capsule with `arena repro`.
#include <stdio.h>
#include <stdlib.h>

static void read_cards(int n, int cards[]) {
    for (int i = 0; i < n; i++) scanf("%d", &cards[i]);
}

int main(void) {
    int action = -1;
    scanf("%d", &action);
    if (action == 0) {
        printf("Quitter\n");
        return 0;
    }
    if (action == 1) {
        int hand[10];
        read_cards(10, hand);
        printf("%d %d %d\n", hand[7], hand[8], hand[9]);
        return 0;
    }
    int n_hand, n_played, position;
    scanf("%d %d %d", &n_hand, &n_played, &position);
    int hand[10], played[3], previous[40];
    read_cards(n_hand, hand);
    read_cards(n_played, played);
    read_cards(4 * (10 - n_hand), previous);
    if (n_played == 3) {
        fprintf(stderr, "last to play in a trick: I give up\n");
        exit(3);
    }
    int calves_played = 0, only_calves = 1;
    for (int i = 0; i < 4 * (10 - n_hand); i++) calves_played |= previous[i] / 10 == 3;
    for (int i = 0; i < n_hand; i++) only_calves &= hand[i] / 10 == 3;
    for (int i = 0; i < n_hand; i++) {
        int follows = n_played > 0 && hand[i] / 10 == played[0] / 10;
        int may_lead = n_played == 0 && (hand[i] / 10 != 3 || calves_played || only_calves);
        if (follows || may_lead) {
            printf("%d\n", hand[i]);
            return 0;
        }
    }
    printf("%d\n", hand[0]); // void in the led suit
    return 0;
}
