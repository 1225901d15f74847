use glam::Vec3;
use wayfarer::crowd::*;
fn main() {
    let mut c = Crowd::new(8).unwrap();
    c.add_obstacle(Obstacle::Circle {
        center: Vec3::new(5.0, 0.0, 0.0),
        radius: 1.0,
    })
    .unwrap();
    c.add_obstacle(Obstacle::Box {
        min: Vec3::new(-1.0, 0.0, -1.0),
        max: Vec3::new(1.0, 0.0, 1.0),
    })
    .unwrap();
    c.add_obstacle(Obstacle::Wall {
        a: Vec3::new(0.0, 0.0, 5.0),
        b: Vec3::new(5.0, 0.0, 5.0),
    })
    .unwrap();
    let a = c
        .add_agent(Vec3::new(-4.0, 0.0, 0.05), 1.5707964, 1.5, 0.4)
        .unwrap();
    c.set_target(a, Vec3::new(12.0, 0.0, 0.0), 0.3).unwrap();
    for i in 0..400 {
        c.step(0.05, 1).unwrap();
        let ag = c.agent(a).unwrap();
        if i % 10 == 0 {
            println!(
                "{i} {:?} yaw {:.2} {:?} {:?}",
                ag.position,
                ag.yaw,
                ag.state(),
                ag.hit().kind
            );
        }
    }
}
