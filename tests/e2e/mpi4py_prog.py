# mpi4py_prog.py - an mpi4py program nobody here wrote the library of: buffer
# and pickled point-to-point (mpi4py's pickled recv uses matched probes:
# MPI_Mprobe + MPI_Mrecv), a broadcast and an allreduce (test_mpi4py.sh).
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
if rank == 0:
    comm.Send([bytearray(1024), MPI.BYTE], dest=1, tag=0)
    comm.send({"step": 1}, dest=1, tag=1)
    comm.send(list(range(10)), dest=1, tag=2)
elif rank == 1:
    buf = bytearray(1024)
    comm.Recv([buf, MPI.BYTE], source=0, tag=0)
    print("buffer received at %.9f" % MPI.Wtime(), flush=True)
    a = comm.recv(source=0, tag=1)
    b = comm.recv(source=0, tag=2)
    print("pickled received: %s %s" % (a, b), flush=True)
x = comm.bcast({"root": 0} if rank == 0 else None, root=0)
s = comm.allreduce(rank + 1, op=MPI.SUM)
if rank == 0:
    print("bcast %s allreduce %d" % (x, s), flush=True)
