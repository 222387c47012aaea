package org.loommpm.engine;

import org.loommpm.spi.ChildServices;
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.ClientCharges;
import org.loommpm.spi.IntervalLog;
import org.loommpm.spi.ProtocolCounters;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;

/**
 * The {@link ChildServices} protocols get for a connection: a narrow view of its {@link Child}
 * (one per poller, stateless), so that protocol code never holds the child, its pool or its
 * pollers.
 */
final class ChildServicesView implements ChildServices {
    private final Child child;

    ChildServicesView(Child child) {
        this.child = child;
    }

    @Override
    public void dispatch(WorkerTask task) {
        child.pool().dispatch(task);
    }

    @Override
    public void dispatchOwner(WorkerTask task) {
        child.pool().dispatchOwner(task);
    }

    @Override
    public boolean lend(int slot) {
        return child.pool().lend(slot);
    }

    @Override
    public int reclaim() {
        return child.pool().reclaim();
    }

    @Override
    public int busyWorkers() {
        return child.pool().active();
    }

    @Override
    public SlotBoard scoreboard() {
        return child.pool().scoreboard();
    }

    @Override
    public void requestDoneWithoutSlot(long bytesSent) {
        child.requestDoneWithoutSlot(bytesSent);
    }

    @Override
    public boolean isDraining() {
        return child.isDraining();
    }

    @Override
    public boolean isStopping() {
        return child.isStopping();
    }

    @Override
    public ProtocolCounters counters() {
        return child.protocolCounters();
    }

    @Override
    public InputBudget inputBudget() {
        return child.inputBudget();
    }

    @Override
    public IntervalLog intervalLog() {
        return child.intervalLog();
    }

    @Override
    public ClientCharges charges() {
        return child.charges();
    }
}
