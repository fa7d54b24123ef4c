/* The name of an element's field, as written. */
#include <pthread.h>
struct entry { int count; } tab[8];
static void *t(void *a)
{
    int i = (int)(long)a;
    tab[i].count++; // RACE 'tab[i].count'
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, (void *)1);
    pthread_create(&y, 0, t, (void *)1);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
