/* Two threads reading lines into one global buffer. */
#include <pthread.h>
#include <stdio.h>
char line[128];
static void *t(void *a) { fgets(line, sizeof line, stdin); return a; } // RACE
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
