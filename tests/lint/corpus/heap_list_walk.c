/* Two workers walk a list of heap nodes that main built before starting
 * them, and each bumps every node's count with no lock. */
#include <pthread.h>
#include <stdlib.h>
struct node {
    int count;
    struct node *next;
};
struct node *head;
static void *walk(void *a)
{
    for (struct node *n = head; n; n = n->next)
        n->count++; // RACE
    return a;
}
int main(void)
{
    for (int i = 0; i < 3; i++) {
        struct node *n = malloc(sizeof *n);
        n->count = 0; // NORACE
        n->next = head;
        head = n;
    }
    pthread_t x, y;
    pthread_create(&x, 0, walk, 0);
    pthread_create(&y, 0, walk, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
