/* Each thread counts in its own slot, chosen at run time; main reads
 * slot 2 while they run. Slot 2 is one of theirs. */
#include <pthread.h>
#include <stdlib.h>
long slots[4];
static void *count(void *a)
{
    int i = rand() & 3; // RACE
    slots[i]++; // RACE
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, count, 0);
    pthread_create(&y, 0, count, 0);
    long seen = slots[2]; // RACE
    pthread_join(x, 0);
    pthread_join(y, 0);
    return (int)seen;
}
