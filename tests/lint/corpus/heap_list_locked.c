/* The same walk under one lock: silent. */
#include <pthread.h>
#include <stdlib.h>
struct node {
    int count;
    struct node *next;
};
struct node *head;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *walk(void *a)
{
    pthread_mutex_lock(&m);
    for (struct node *n = head; n; n = n->next)
        n->count++; // NORACE
    pthread_mutex_unlock(&m);
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
