// Times JGraphT 1.5.1's WarnsdorffRuleKnightTourHeuristic (jgrapht-demo) for ktsolve's benchmarks.
//
// The class lives in package org.jgrapht.demo because TourType and KnightTour are package-private
// there.  Usage: java -cp jgrapht-core.jar:jgrapht-demo.jar:. org.jgrapht.demo.JGraphTWarnsdorff N REPS
// Prints one line per run: "run <k> <seconds> <squares in the tour>"; run 0 is the cold (first) run.
package org.jgrapht.demo;

public class JGraphTWarnsdorff
{
    public static void main(String[] args)
    {
        int n = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        for (int k = 0; k <= reps; k++) {
            long t0 = System.nanoTime();
            WarnsdorffRuleKnightTourHeuristic h = new WarnsdorffRuleKnightTourHeuristic(n);
            KnightTour tour = h.getTour(TourType.OPEN, false, 0, 0);
            long t1 = System.nanoTime();
            int size = tour == null ? 0 : tour.toList().size();
            System.out.println("run " + k + " " + ((t1 - t0) / 1e9) + " " + size);
        }
    }
}
