/* scanf writes its targets; free writes the object it frees. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
int level;
int *shared;
static void *t(void *a) { return (void *)(long)(level + *shared); } // RACE
int main(void)
{
    pthread_t x;
    shared = malloc(sizeof *shared); // NORACE
    *shared = 1; // NORACE
    pthread_create(&x, 0, t, 0);
    scanf("%d", &level); // RACE
    free(shared); // RACE
    pthread_join(x, 0);
    return 0;
}
