/* A field of a field through a pointer. */
#include <pthread.h>
struct stats { long hits; };
struct server { struct stats *stats; } srv;
struct stats st;
static void *t(void *a)
{
    struct server *s = a;
    s->stats->hits++; // RACE 's->stats->hits'
    return a;
}
int main(void)
{
    pthread_t x, y;
    srv.stats = &st; // NORACE
    pthread_create(&x, 0, t, &srv);
    pthread_create(&y, 0, t, &srv);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
