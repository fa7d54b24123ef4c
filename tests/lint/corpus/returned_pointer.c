/* Objects reached through a pointer a call returns. */
#include <pthread.h>
struct obj { int field; } the;
static struct obj *get(void) { return &the; }
static void *t(void *a) { get()->field++; return a; } // RACE
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
