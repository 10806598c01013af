# Independent re-derivation (not fishtest code) of the reference values in
# estimate_test.go and sprt_test.go. Run: python3 stats/testdata/reference.py
# Part 1: closed-form figures and logistic LLRs (golden-section search and
# Newton on the KKT equations of the constrained MLE).
import math
from statistics import NormalDist
N01 = NormalDist()
z = N01.inv_cdf(0.975)
print("z95", repr(z))
def elo(s): return -400*math.log10(1/s-1)
def L(e): return 1/(1+10**(-e/400))

# 1. NMR Table 6: +309 -217 =474
W,Lo,D = 309,217,474; n=W+Lo+D
s=(W+D/2)/n
var=(W*(1-s)**2 + D*(0.5-s)**2 + Lo*s**2)/n
se=math.sqrt(var/n)
print("nmr score",s,"var",var,"se",se)
print("nmr elo",elo(s),"low",elo(s-z*se),"high",elo(s+z*se),"half",(elo(s+z*se)-elo(s-z*se))/2)
print("nmr 2sigma half", (elo(s+2*se)-elo(s-2*se))/2)
print("nmr los", N01.cdf((s-0.5)/se))
m3=(W*(1-s)**3 + D*(0.5-s)**3 + Lo*(-s)**3)/n
m4=(W*(1-s)**4 + D*(0.5-s)**4 + Lo*(s)**4)/n
skew=m3/var**1.5; exk=m4/var**2-3
t=(s-0.5)/math.sqrt(var); vt=max(1-t*skew+0.25*t*t*(exk+2),0)
k=800/math.log(10)
print("nmr nelo",k*t,"low",k*(t-z*math.sqrt(vt/n)),"high",k*(t+z*math.sqrt(vt/n)), "skew",skew,"exk",exk,"vt",vt)

# 2. pentanomial example [LL,LD,DD,WD,WW]
P=[12,85,190,100,13]; N=sum(P); a=[0,.25,.5,.75,1]
mu=sum(c*x for c,x in zip(P,a))/N
v=sum(c*(x-mu)**2 for c,x in zip(P,a))/N
se=math.sqrt(v/N)
print("penta score",mu,"var",v,"se",se)
print("penta elo",elo(mu),"low",elo(mu-z*se),"high",elo(mu+z*se))
print("penta los",N01.cdf((mu-0.5)/se))
m3=sum(c*(x-mu)**3 for c,x in zip(P,a))/N; m4=sum(c*(x-mu)**4 for c,x in zip(P,a))/N
skew=m3/v**1.5; exk=m4/v**2-3
t=(mu-0.5)/math.sqrt(v); vt=max(1-t*skew+0.25*t*t*(exk+2),0)
print("penta nelo",k*t/math.sqrt(2),"low",k*(t-z*math.sqrt(vt/N))/math.sqrt(2),"high",k*(t+z*math.sqrt(vt/N))/math.sqrt(2))

# 3. trinomial LLR by 1-D golden-section search over the draw probability
def golden(f, lo, hi, it=200):
    g=(math.sqrt(5)-1)/2
    c=hi-g*(hi-lo); d=lo+g*(hi-lo)
    fc,fd=f(c),f(d)
    for _ in range(it):
        if fc>fd: hi,d,fd=d,c,fc; c=hi-g*(hi-lo); fc=f(c)
        else: lo,c,fc=c,d,fd; d=lo+g*(hi-lo); fd=f(d)
    return f((lo+hi)/2)
def reg(cs): return [c if c>0 else 1e-3 for c in cs]
def maxll_tri_mean(cs, s):
    l,d,w = reg(cs)
    def f(pd):
        pw=s-pd/2; pl=1-s-pd/2
        if pw<=0 or pl<=0 or pd<=0: return -1e300
        return l*math.log(pl)+d*math.log(pd)+w*math.log(pw)
    return golden(f, 0, 2*min(s,1-s))
def llr_tri(cs, e0, e1):
    return maxll_tri_mean(cs,L(e1))-maxll_tri_mean(cs,L(e0))
cs=[217,474,309]  # L,D,W
print("llr tri nmr [0,10]", llr_tri(cs,0,10))
print("llr tri nmr [0,5]", llr_tri(cs,0,5))
print("llr tri [-3,1] 13624/34333/13543", llr_tri([13624,34333,13543],-3,1))

# 4. pentanomial LLR: maximise sum n_i log p_i under sum p = 1, sum a_i p_i = s
# by Newton on the two KKT equations in the multipliers (lam, mu):
# p_i = n_i/(lam + mu a_i).
def maxll_mean(cs, a, s):
    n=reg(cs); Nn=sum(n)
    lam,mu=Nn,0.0
    for _ in range(200):
        den=[lam+mu*x for x in a]
        F1=sum(ni/dd for ni,dd in zip(n,den))-1
        F2=sum(x*ni/dd for ni,dd,x in zip(n,den,a))-s
        J11=-sum(ni/dd**2 for ni,dd in zip(n,den)); J12=-sum(x*ni/dd**2 for ni,dd,x in zip(n,den,a))
        J22=-sum(x*x*ni/dd**2 for ni,dd,x in zip(n,den,a))
        det=J11*J22-J12*J12
        dl=(F1*J22-F2*J12)/det; dm=(J11*F2-J12*F1)/det
        st=1.0
        while any(lam-st*dl+(mu-st*dm)*x<=0 for x in a): st/=2
        lam-=st*dl; mu-=st*dm
    p=[ni/(lam+mu*x) for ni,x in zip(n,a)]
    assert abs(sum(p)-1)<1e-12 and abs(sum(pi*x for pi,x in zip(p,a))-s)<1e-12
    return sum(ni*math.log(pi) for ni,pi in zip(n,p))
def llr_mean(cs,a,e0,e1): return maxll_mean(cs,a,L(e1))-maxll_mean(cs,a,L(e0))
print("llr tri via KKT nmr [0,10]", llr_mean([217,474,309],[0,.5,1],0,10))
print("llr penta fishtest [-3,1] [10789,19328,33806,19402,10543]", llr_mean([10789,19328,33806,19402,10543],a,-3,1))
print("llr penta example [0,10]", llr_mean(P,a,0,10))
print("llr penta with zero bin [0,5] [0,3,10,6,2]", llr_mean([0,3,10,6,2],a,0,5))

# 5. normalized LLR, trinomial, by 1-D search: for a draw probability pd,
# the win probability pw that makes (mu-0.5)/sigma = t is found by bisection
# (t increases with pw at fixed pd), then the log-likelihood is maximised over pd.
def maxll_tri_t(cs, t):
    l,d,w=reg(cs)
    def pw_for(pd):
        def tv(pw):
            pl=1-pd-pw; m=pw+pd/2; var=pw+pd/4-m*m
            return (m-0.5)/math.sqrt(var)
        lo,hi=0.0,1-pd
        for _ in range(200):
            mid=(lo+hi)/2
            if tv(mid)<t: lo=mid
            else: hi=mid
        return (lo+hi)/2
    def f(pd):
        pw=pw_for(pd); pl=1-pd-pw
        if pw<=0 or pl<=0 or pd<=0: return -1e300
        return l*math.log(pl)+d*math.log(pd)+w*math.log(pw)
    return golden(f,1e-12,1-1e-12)
def llr_tri_norm(cs,n0,n1):
    return maxll_tri_t(cs,n1/k)-maxll_tri_t(cs,n0/k)
print("llr tri normalized nmr [0,10]", llr_tri_norm([217,474,309],0,10))

# Part 2: normalized-Elo LLRs by profile likelihood.
def solve3(A,b):
    n=3; M=[row[:]+[bb] for row,bb in zip(A,b)]
    for c in range(n):
        piv=max(range(c,n),key=lambda r:abs(M[r][c])); M[c],M[piv]=M[piv],M[c]
        for r in range(n):
            if r!=c:
                f=M[r][c]/M[c][c]
                for j in range(c,n+1): M[r][j]-=f*M[c][j]
    return [M[i][n]/M[i][i] for i in range(n)]
def inner(n,a,m,m2):
    try: return inner_(n,a,m,m2)
    except (ZeroDivisionError, ValueError, OverflowError): return None
def inner_(n,a,m,m2):
    N=sum(n); l=[N,0.0,0.0]
    tgt=[1,m,m2]
    for _ in range(300):
        D=[l[0]+l[1]*x+l[2]*x*x for x in a]
        if any(d<=0 for d in D): return None
        mom=[sum(ni*x**j/d for ni,x,d in zip(n,a,D)) for j in range(3)]
        F=[mom[j]-tgt[j] for j in range(3)]
        J=[[-sum(ni*x**(j+q)/d**2 for ni,x,d in zip(n,a,D)) for q in range(3)] for j in range(3)]
        step=solve3(J,[-f for f in F]); st=1.0
        while st>1e-12:
            ln=[li+st*si for li,si in zip(l,step)]
            if all(ln[0]+ln[1]*x+ln[2]*x*x>0 for x in a): break
            st/=2
        l=ln
        if max(abs(f) for f in F)<1e-15: break
    D=[l[0]+l[1]*x+l[2]*x*x for x in a]
    p=[ni/d for ni,d in zip(n,D)]
    if abs(sum(p)-1)>1e-9 or abs(sum(pi*x for pi,x in zip(p,a))-m)>1e-9 or abs(sum(pi*x*x for pi,x in zip(p,a))-m2)>1e-9: return None
    return sum(ni*math.log(pi) for ni,pi in zip(n,p))
def maxll_mean(n,a,s):
    # t = 0: only the mean is fixed; profile over the second moment instead.
    def f(m2):
        r=inner(n,a,s,m2); return -1e300 if r is None else r
    return golden(f, s*s+1e-12, s-1e-12)  # sigma^2>0 and m2 <= m for a in [0,1]
def maxll_t(cs,a,t):
    n=reg(cs)
    if t==0: return maxll_mean(n,a,0.5)
    def f(m):
        sg=(m-0.5)/t
        if sg<=0: return -1e300
        r=inner(n,a,m,sg*sg+m*m); return -1e300 if r is None else r
    # feasible means: sigma = |m-0.5|/|t| must not exceed sqrt(m(1-m))
    def feasible(m): return abs(m-0.5)/abs(t) < math.sqrt(m*(1-m))
    far=1.0 if t>0 else 0.0
    lo,hi=0.5,far
    for _ in range(200):
        mid=(lo+hi)/2
        if feasible(mid): lo=mid
        else: hi=mid
    a_,b_=sorted((0.5,lo))
    return golden(f,a_+1e-13,b_-1e-13)
def llr_norm(cs,a,n0,n1,pairs):
    sc=math.sqrt(2) if pairs else 1
    return maxll_t(cs,a,n1/k*sc)-maxll_t(cs,a,n0/k*sc)
print("tri normalized nmr [0,10]", llr_norm([217,474,309],[0,.5,1],0,10,False))
print("penta normalized [0,10] [12,85,190,100,13]", llr_norm([12,85,190,100,13],[0,.25,.5,.75,1],0,10,True))
print("penta normalized fishtest [0.764,3.439] [39,2226,31451,2412,40]", llr_norm([39,2226,31451,2412,40],[0,.25,.5,.75,1],0.764,3.439,True))
